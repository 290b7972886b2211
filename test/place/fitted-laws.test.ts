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
import { refusal } from "../helpers";

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

describe("fitted-models file: its checks", () => {
  const HEADER = "trace,distribution,interval,param1_name,param1,param2_name,param2,units";
  const of = (rows: string[], text = "fitted:T1/weibull", interval: "availability" | "unavailability" = "availability") =>
    fittedLawString(text, interval, [HEADER, ...rows].join("\n"), "m.csv");

  it("reads a small file: names with spaces and case, the interval by its first word, log-normal's dash", () => {
    const rows = [
      "T1,Weibull,availability (time to fault),shape,0.5,scale,2,hours",
      "T1,Weibull,unavailability (fault duration),shape,0.7,scale,3,hours",
      "T1,LogNormal,availability,mu,1.5,sigma,2.5,hours",
      "T1,Exponential,availability,mean,4,,,hours",
    ];
    expect(of(rows, "  Fitted : t1 / WEIBULL ")).toBe("weibull:shape=0.5,scale=2,unit=h");
    expect(of(rows, "fitted:T1/weibull", "unavailability")).toBe("weibull:shape=0.7,scale=3,unit=h");
    expect(of(rows, "fitted:T1/log-normal")).toBe("lognormal:mu=1.5,sigma=2.5,unit=h");
    // The exponential has one parameter: its empty param2 is not read.
    expect(of(rows, "fitted:T1/exponential")).toBe("exp:mean=4,unit=h");
    expect(isFittedLaw(" FITTED :T1/weibull")).toBe(true);
    expect(isFittedLaw("refitted:T1/weibull")).toBe(false);
  });

  it("refuses a missing column, a parameter that is not a number and units other than hours, at the file's line", () => {
    expect(refusal(() => fittedLawString("fitted:T1/weibull", "availability", "trace,distribution\nT1,Weibull\n", "m.csv"))).toBe(
      'm.csv:1: no "interval" column; the fitted-models file has trace, distribution, interval, param1_name, param1, param2_name, param2, units',
    );
    expect(refusal(() => of(["T1,Weibull,availability,shape,x,scale,2,hours"]))).toBe('m.csv:2: param1 is not a number ("x")');
    expect(refusal(() => of(["T0,Gamma,availability,shape,1,scale,2,hours", "T1,Weibull,availability,shape,1,scale,,hours"]))).toBe('m.csv:3: param2 is not a number ("")');
    expect(refusal(() => of(["T1,Weibull,availability,shape,1,scale,2,days"]))).toBe('m.csv:2: units must be "hours", found "days"');
    expect(refusal(() => of(["T1,Weibull,availability,shape,1,scale,2,hours"], "fitted:T1/weibull", "unavailability"))).toBe(
      'law "fitted:T1/weibull": m.csv has no unavailability model "T1/weibull"; use fitted:<trace>/<distribution> with a trace among T1 and a distribution among exponential, weibull, lognormal, gamma, e.g. fitted:Microsoft99/weibull',
    );
    expect(refusal(() => of(["T1,Pareto,availability,shape,1,scale,2,hours"], "fitted:T1/pareto"))).toMatch(/has no availability model "T1\/pareto"/);
    expect(refusal(() => of(["T1,Weibull,availability,shape,1,scale,2,hours"], "refitted:T1/weibull"))).toMatch(/^law "refitted:T1\/weibull": expected fitted:/);
    expect(refusal(() => fittedLawString("fitted:T1/weibull", "availability", "", "m.csv"))).toMatch(/^m\.csv:1: no "trace" column;/);
    expect(refusal(() => of(["T1,Weibull,availability,shape,1,scale,2,hours"], "fitted:T1/weibull/x"))).toMatch(/^law "fitted:T1\/weibull\/x": expected fitted:<trace>\/<distribution> with a trace among T1 /);
  });
});
