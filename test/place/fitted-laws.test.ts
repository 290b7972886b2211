/**
 * The Failure Trace Archive's fitted laws (data/availability/fta-fitted-models.csv, as OpenDC
 * hard-codes them): `fitted:<trace>/<distribution>` gives the law string of the interval
 * asked for, with the file's numbers, and refuses what the file does not hold.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLaw, FITTED_MODELS_FILE, fittedLawString, isFittedLaw, parseLawString } from "../../pipeline/place/laws";
import { projectRoot } from "../../pipeline/shared/version";

const csv = readFileSync(join(projectRoot(), FITTED_MODELS_FILE), "utf8");
const law = (text: string, interval: "availability" | "unavailability") => fittedLawString(text, interval, csv, FITTED_MODELS_FILE);

describe("fitted:<trace>/<distribution>", () => {
  it("reads each interval's fit (the file's provenance quotes Microsoft99.kt's Weibull(0.55, 35.30) and Weibull(0.60, 9.34))", () => {
    expect(isFittedLaw("fitted:Microsoft99/weibull")).toBe(true);
    expect(isFittedLaw("weibull:shape=1,scale=2")).toBe(false);
    expect(law("fitted:Microsoft99/weibull", "availability")).toBe("weibull:shape=0.55,scale=35.3,unit=h");
    expect(law("fitted:microsoft99/Weibull", "unavailability")).toBe("weibull:shape=0.6,scale=9.34,unit=h");
    // The file's first rows: G5k06's exponential means 32.41 h and 7.41 h, its gamma (0.34, 94.35 h), its log-normal (1.51, 2.42).
    expect(law("fitted:G5k06/exponential", "availability")).toBe("exp:mean=32.41,unit=h");
    expect(law("fitted:G5k06/exponential", "unavailability")).toBe("exp:mean=7.41,unit=h");
    expect(law("fitted:G5k06/gamma", "availability")).toBe("gamma:shape=0.34,scale=94.35,unit=h");
    expect(law("fitted:G5k06/log-normal", "availability")).toBe("lognormal:mu=1.51,sigma=2.42,unit=h");
  });

  it("gives laws whose means are the fits' (the provenance cross-checks Lanl05's exponential, 1779.99 h, against the LANL trace)", () => {
    expect(createLaw(parseLawString(law("fitted:Lanl05/exponential", "availability")).spec).meanSeconds / 3600).toBeCloseTo(1779.99, 2);
    // Every one of the 72 fits makes a law with a finite mean > 0.
    const rows = csv.trim().split("\n").slice(1).map((line) => line.split(","));
    expect(rows).toHaveLength(72);
    for (const [trace, distribution] of rows) {
      for (const interval of ["availability", "unavailability"] as const) {
        const mean = createLaw(parseLawString(law(`fitted:${trace}/${distribution}`, interval)).spec).meanSeconds;
        expect(Number.isFinite(mean) && mean > 0, `${trace}/${distribution} ${interval}`).toBe(true);
      }
    }
  });

  it("refuses names the file does not have, saying which it has", () => {
    expect(() => law("fitted:Seti/weibull", "availability")).toThrow(/has no availability model "Seti\/weibull"; use fitted:<trace>\/<distribution> with a trace among G5k06, Lanl05, .*Websites02 and a distribution among exponential, weibull, lognormal, gamma/);
    expect(() => law("fitted:Microsoft99/pareto", "availability")).toThrow(/no availability model/);
    expect(() => law("fitted:Microsoft99", "availability")).toThrow(/expected fitted:<trace>\/<distribution>/);
  });
});
