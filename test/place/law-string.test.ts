import { describe, expect, it } from "vitest";
import { createLaw, formatLawString, parseDurationsCsv, parseLawString, type LawSpec } from "../../pipeline/place/laws";
import { expectClose, refusal } from "../helpers";

describe("law strings", () => {
  it("parses the issue's examples", () => {
    expect(parseLawString("weibull:shape=0.431,scale=6055").spec).toEqual({ kind: "weibull", shape: 0.431, scaleSeconds: 6055 });
    expect(parseLawString("exp:rate=1e-4").spec).toEqual({ kind: "exponential", ratePerSecond: 1e-4 });
    expect(parseLawString("exp:mean=2,unit=h").spec).toEqual({ kind: "exponential", ratePerSecond: 1 / 7200 });
    expect(parseLawString("lognormal:mu=1,sigma=2,unit=min").spec).toEqual({ kind: "lognormal", mu: 1 + Math.log(60), sigma: 2 });
    // The gamma law of the Failure Trace Archive's fits (shape, scale in hours).
    expect(parseLawString("gamma:shape=0.34,scale=94.35,unit=h").spec).toEqual({ kind: "gamma", shape: 0.34, scaleSeconds: 94.35 * 3600 });
    expect(formatLawString(parseLawString("gamma:shape=2.5,scale=1000").spec)).toBe("gamma:shape=2.5,scale=16.6666666667,unit=min");
  });

  it("reads [BKT] Table I's availability law in hours", () => {
    const { spec } = parseLawString("weibull:shape=0.431,scale=1.682,unit=h");
    expect(spec).toEqual({ kind: "weibull", shape: 0.431, scaleSeconds: 1.682 * 3600 });
  });

  it("makes the hyper-exponential reading explicit, and both readings give docs/science.md §5.5's means", () => {
    expect(() => parseLawString("hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;unit=h")).toThrow(/needs param=rate or param=mean/);
    const rates = parseLawString("hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;param=rate;unit=h");
    const means = parseLawString("hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;param=mean;unit=h");
    // docs/science.md §5.5: "rates give a 13.1 h mean, means give 3.9 h" (after renormalising p, which sums to 1.001).
    expect(createLaw(rates.spec).meanSeconds / 3600).toBeCloseTo(13.1, 1);
    expect(createLaw(means.spec).meanSeconds / 3600).toBeCloseTo(3.9, 1);
    expect(rates.warnings[0]).toMatch(/summed to 1.001, renormalised/);
    // Commas before name= separate parameters too.
    expect(parseLawString("hyperexp:p=0.5,0.5,mu=1,2,param=mean").spec).toEqual({
      kind: "hyperexponential",
      probabilities: [0.5, 0.5],
      ratesPerSecond: [1, 0.5],
      reading: "mean",
    });
  });

  it("refuses bad strings with what was expected", () => {
    expect(() => parseLawString("weibull")).toThrow(/expected <kind>:<parameters>/);
    expect(() => parseLawString("pareto:shape=2")).toThrow(/unknown law "pareto"; known laws: exp, weibull, hyperexp, lognormal, gamma, empirical/);
    expect(() => parseLawString("weibull:shap=2,scale=1")).toThrow(/weibull takes shape, scale, unit; found "shap"/);
    expect(() => parseLawString("weibull:shape=2")).toThrow(/weibull needs scale=/);
    expect(() => parseLawString("weibull:shape=x,scale=1")).toThrow(/shape=x is not a number/);
    expect(() => parseLawString("exp:rate=1,mean=2")).toThrow(/exactly one of rate=/);
    expect(() => parseLawString("exp:rate=1,unit=week")).toThrow(/unit must be one of s, min, h, d/);
    expect(() => parseLawString("hyperexp:p=0.5,0.6;mu=1,2;param=rate")).toThrow(/sum to 1, they sum to 1.1/);
    expect(() => createLaw(parseLawString("weibull:shape=-1,scale=5").spec)).toThrow(/shape must be a finite number > 0, got -1/);
  });

  it("reads empirical durations through the loader it is given, in the law's unit", () => {
    const { spec } = parseLawString("empirical:avail.csv;unit=min", (path) => {
      expect(path).toBe("avail.csv");
      return [1, 2];
    });
    expect(spec).toEqual({ kind: "empirical", durationsSeconds: [60, 120], source: "avail.csv" });
    expect(() => parseLawString("empirical:x.csv")).toThrow(/need a file reader/);
  });

  it("formats a spec with a unit on every time: the largest unit in which the law's scale, mean or median is ≥ 1", () => {
    const format = (text: string) => formatLawString(parseLawString(text).spec);
    // [BKT] Table I's laws (docs/science.md §5.5), as the paper prints them.
    expect(format("weibull:shape=0.431,scale=6055.2")).toBe("weibull:shape=0.431,scale=1.682,unit=h");
    expect(format("weibull:shape=0.58,scale=11836800")).toBe("weibull:shape=0.58,scale=137,unit=d");
    expect(format("hyperexp:p=0.398,0.305,0.297;mu=0.031,11.566,1.322;param=mean;unit=h")).toBe("hyperexp:p=0.398,0.305,0.297;mu=0.031,11.566,1.322;param=mean;unit=h");
    expect(format("exp:rate=1e-4")).toBe("exp:mean=2.77777777778,unit=h");
    expect(format("exp:mean=30")).toBe("exp:mean=30,unit=s");
    expect(format("exp:rate=1e308")).toBe("exp:mean=1e-308,unit=s");
    // The median e^μ = e^8.5 s = 81.97 min.
    expect(format("lognormal:mu=8.5,sigma=1.2")).toBe(`lognormal:mu=${Number((8.5 - Math.log(3600)).toPrecision(12))},sigma=1.2,unit=h`);
    expect(format("hyperexp:p=0.5,0.5;mu=2,4;param=rate;unit=h")).toBe("hyperexp:p=0.5,0.5;mu=0.0333333333333,0.0666666666667;param=rate;unit=min");
  });

  it("formats a spec back into a string that parses to the same law", () => {
    for (const text of [
      "weibull:shape=0.431,scale=1.682,unit=h",
      "exp:mean=300",
      "exp:rate=3,unit=d",
      "lognormal:mu=3,sigma=1",
      "lognormal:mu=9,sigma=2",
      "gamma:shape=0.34,scale=94.35,unit=h",
      "hyperexp:p=0.2,0.8;mu=3,4;param=mean",
      "hyperexp:p=0.5,0.5;mu=2,4;param=rate;unit=h",
    ]) {
      const spec = parseLawString(text).spec;
      const again = createLaw(parseLawString(formatLawString(spec)).spec);
      expectClose(again.meanSeconds, createLaw(spec).meanSeconds, 1e-11);
      expectClose(again.cdf(1234), createLaw(spec).cdf(1234), 1e-11);
    }
  });
});

describe("durations CSV", () => {
  it("reads one column with or without a header, or a duration column", () => {
    expect(parseDurationsCsv("3600\n# comment\n7200\n\n120\n", "a.csv")).toEqual([3600, 7200, 120]);
    expect(parseDurationsCsv("seconds\n5\n6\n", "a.csv")).toEqual([5, 6]);
    expect(parseDurationsCsv("host,duration\nh1,5\nh2,6\n", "a.csv")).toEqual([5, 6]);
    // A byte-order mark, CRLF and trailing blank lines change nothing.
    expect(parseDurationsCsv("\uFEFFhost,duration\r\nh1,5\r\nh2,6\r\n\r\n", "a.csv")).toEqual([5, 6]);
    expect(parseDurationsCsv("\uFEFF3600\r\n7200\r\n\r\n", "a.csv")).toEqual([3600, 7200]);
  });

  it("refuses bad rows with file:line", () => {
    expect(() => parseDurationsCsv("duration\n5\n-1\n", "a.csv")).toThrow(/^a.csv:3: duration "-1" is not a number > 0/);
    expect(() => parseDurationsCsv("host,length\nh1,5\n", "a.csv")).toThrow(/a.csv:1: several columns \(host, length\) and none is named "duration"/);
    expect(() => parseDurationsCsv("", "a.csv")).toThrow(/no durations found/);
  });
});

describe("law strings: every message and edge", () => {
  const EXAMPLES =
    "Examples: exp:rate=1e-4  exp:mean=2.7,unit=h  weibull:shape=0.431,scale=6055  hyperexp:p=0.398,0.305,0.298;mu=0.031,11.566,1.322;param=rate;unit=h  lognormal:mu=8.5,sigma=1.2  gamma:shape=0.5,scale=20,unit=h  empirical:availability.csv";
  const message = (text: string) => refusal(() => parseLawString(text));

  it("says what was expected, then the examples", () => {
    expect(message("weibull")).toBe(`law "weibull": expected <kind>:<parameters>, found no ":". ${EXAMPLES}`);
    expect(message("pareto:shape=2")).toBe(`law "pareto:shape=2": unknown law "pareto"; known laws: exp, weibull, hyperexp, lognormal, gamma, empirical. ${EXAMPLES}`);
    expect(message("weibull:shape=2,scale")).toBe(`law "weibull:shape=2,scale": shape=2,scale is not a number. ${EXAMPLES}`);
    expect(message("weibull:shape=1,shape=2,scale=3")).toMatch(/^law "weibull:shape=1,shape=2,scale=3": "shape" is given twice\. Examples/);
    expect(message("weibull:")).toMatch(/: weibull needs shape=\. Examples/);
    expect(message("weibull:shape=,scale=1")).toMatch(/: shape= is not a number\. /);
    expect(message("weibull:shape= ,scale=1")).toMatch(/: shape= is not a number\. /);
    expect(message("exp:unit=h")).toMatch(/: exp needs exactly one of rate= \(per unit\) or mean= \(in unit\)\. /);
    expect(message("exp:rate=1,unit=week")).toMatch(/: unit must be one of s, min, h, d; found "week"\. /);
  });

  it("names each kind's parameters when one is unknown", () => {
    expect(message("exp:shape=1")).toMatch(/: exponential takes rate, mean, unit; found "shape"\./);
    expect(message("hyperexp:rate=1")).toMatch(/: hyperexponential takes p, mu, param, unit; found "rate"\./);
    expect(message("lognormal:shape=1")).toMatch(/: lognormal takes mu, sigma, unit; found "shape"\./);
    expect(message("gamma:mu=1")).toMatch(/: gamma takes shape, scale, unit; found "mu"\./);
  });

  it("reads kinds by their aliases, in any case, with spaces around names and values", () => {
    expect(parseLawString(" EXPONENTIAL : rate = 2 , unit = min ").spec).toEqual({ kind: "exponential", ratePerSecond: 2 / 60 });
    expect(parseLawString("Log-Normal:mu=1;sigma=2").spec).toEqual({ kind: "lognormal", mu: 1, sigma: 2 });
    expect(parseLawString("hyperexponential:p=1;mu=4;param=mean;unit=d").spec).toEqual({ kind: "hyperexponential", probabilities: [1], ratesPerSecond: [1 / (4 * 86400)], reading: "mean" });
    expect(parseLawString("weibull: ;shape=2;scale=3").spec).toEqual({ kind: "weibull", shape: 2, scaleSeconds: 3 });
  });

  it("checks the hyper-exponential's lists, reading and probabilities", () => {
    expect(message("hyperexp:p=0.5,,0.5;mu=1,2,3;param=rate")).toMatch(/: p: item 2 \(""\) is not a number\./);
    expect(message("hyperexp:p=0.5, ,0.5;mu=1,2,3;param=rate")).toMatch(/: p: item 2 \(" "\) is not a number\./);
    expect(message("hyperexp:p=0.5,x;mu=1,2;param=rate")).toMatch(/: p: item 2 \("x"\) is not a number\./);
    expect(message("hyperexp:p=0.5,0.5;mu=1,2;param=rates")).toMatch(/: param must be "rate" or "mean", found "rates"\./);
    expect(message("hyperexp:p=0.5,0.5;mu=1,2,3;param=rate")).toMatch(/: p has 2 values but mu has 3\./);
    expect(message("hyperexp:p=0.5,0.5;mu=1,2")).toMatch(/: hyperexp needs param=rate or param=mean: \[BKT\] does not say whether its μ are rates or means \(docs\/science\.md §5\.5\), so the reading must be explicit\./);
    // Within 0.01 of 1 but with a negative probability: refused, not renormalised.
    expect(message("hyperexp:p=1.005,-0.004;mu=1,2;param=rate")).toMatch(/: the probabilities p must sum to 1, they sum to 1.001/);
    expect(message("hyperexp:p=0.5,0.52;mu=1,2;param=rate")).toMatch(/they sum to 1.02/);
    // 1.001 is renormalised, p / 1.001; a sum within 1e-9 of 1 is left alone, without a warning.
    const renormalised = parseLawString("hyperexp:p=0.5,0.501;mu=1,2;param=rate");
    expect(renormalised.warnings).toEqual(["hyperexp: probabilities summed to 1.001, renormalised to sum to 1"]);
    expect(renormalised.spec).toEqual({ kind: "hyperexponential", probabilities: [0.5 / 1.001, 0.501 / 1.001], ratesPerSecond: [1, 2], reading: "rate" });
    const exact = parseLawString("hyperexp:p=0.5,0.5000000001;mu=1,2;param=rate;unit=h");
    expect(exact.warnings).toEqual([]);
    expect(exact.spec).toEqual({ kind: "hyperexponential", probabilities: [0.5, 0.5000000001], ratesPerSecond: [1 / 3600, 2 / 3600], reading: "rate" });
  });

  it("reads an empirical path whole (commas, '=' and ';' in it), its unit after ';unit='", () => {
    const paths: string[] = [];
    const loader = (path: string) => {
      paths.push(path);
      return [2];
    };
    expect(parseLawString("empirical:dir,x=1;a.csv;unit=h", loader).spec).toEqual({ kind: "empirical", durationsSeconds: [7200], source: "dir,x=1;a.csv" });
    expect(parseLawString("empirical: b.csv ", loader).spec).toEqual({ kind: "empirical", durationsSeconds: [2], source: "b.csv" });
    expect(paths).toEqual(["dir,x=1;a.csv", "b.csv"]);
    expect(message("empirical: ;unit=h")).toMatch(/: empirical needs a file: empirical:<csv of durations>\./);
    expect(message("empirical:a.csv")).toMatch(/: empirical laws need a file reader \(only the command line reads files\)\./);
  });

  it("formats the derived laws and an empirical law without a source for reports", () => {
    const exp: LawSpec = { kind: "exponential", ratePerSecond: 1 / 7200 };
    const weibull: LawSpec = { kind: "weibull", shape: 2, scaleSeconds: 60 };
    expect(formatLawString({ kind: "residual", base: exp, ageSeconds: 3600 })).toBe("residual(age=3600):exp:mean=2,unit=h");
    expect(formatLawString({ kind: "competing", laws: [exp, weibull] })).toBe("competing(exp:mean=2,unit=h | weibull:shape=2,scale=1,unit=min)");
    expect(formatLawString({ kind: "empirical", durationsSeconds: [1, 2, 3] })).toBe("empirical:(3 durations)");
    expect(formatLawString({ kind: "empirical", durationsSeconds: [1], source: "a.csv" })).toBe("empirical:a.csv");
    // A characteristic time below 1 s stays in seconds; 1 d exactly is written in days.
    expect(formatLawString({ kind: "gamma", shape: 3, scaleSeconds: 0.5 })).toBe("gamma:shape=3,scale=0.5,unit=s");
    expect(formatLawString({ kind: "weibull", shape: 1, scaleSeconds: 86400 })).toBe("weibull:shape=1,scale=1,unit=d");
    // Median e^μ = 120 s: μ = ln 2 in minutes.
    expect(formatLawString({ kind: "lognormal", mu: Math.log(120), sigma: 1 })).toBe("lognormal:mu=0.69314718056,sigma=1,unit=min");
  });
});
