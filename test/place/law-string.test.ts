import { describe, expect, it } from "vitest";
import { createLaw, formatLawString, parseDurationsCsv, parseLawString } from "../../pipeline/place/laws";
import { expectClose } from "../helpers";

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
