/** Bad input is refused with a message that says what, where and how to fix it. */
import { describe, expect, it } from "vitest";
import { PAPER_MODEL } from "../../pipeline/fit/model";
import { parseAppsCsv, resolveScheduleOptions, runCampaign, validateApplications } from "../../pipeline/schedule";
import { InputError } from "../../pipeline/shared/errors";

describe("applications CSV", () => {
  it("reads id, p, size_mb in any column order, with an optional node column", () => {
    const apps = parseAppsCsv("size_mb,id,p,extra\n300,a,120,x\n# a comment\n\n150.5,b,0,y\n", "apps.csv");
    expect(apps).toEqual([
      { id: "a", pS: 120, sizeMb: 300 },
      { id: "b", pS: 0, sizeMb: 150.5 },
    ]);
    expect(parseAppsCsv("id,p,size_mb,node\na,1,2,n1\n")[0]!.node).toBe("n1");
  });

  it("reads a file with a byte-order mark, CRLF line ends and trailing blank lines as the same applications", () => {
    const plain = parseAppsCsv("id,p,size_mb\na,120,300\nb,0,150\n", "apps.csv");
    expect(parseAppsCsv("\uFEFFid,p,size_mb\r\na,120,300\r\nb,0,150\r\n\r\n\r\n", "apps.csv")).toEqual(plain);
    expect(() => parseAppsCsv("\uFEFFid,p,size_mb\r\na,120,300\r\nb,x,150\r\n", "apps.csv")).toThrow(/^apps\.csv:3: column p must be a number, found "x"/);
  });

  const refuses = (text: string, pattern: RegExp) => {
    expect(() => parseAppsCsv(text, "apps.csv")).toThrow(InputError);
    expect(() => parseAppsCsv(text, "apps.csv")).toThrow(pattern);
  };

  it("refuses duplicate ids, naming both lines", () => refuses("id,p,size_mb\na,1,100\nb,2,100\na,3,100\n", /apps\.csv:4: duplicate id "a" \(first seen at apps\.csv:2\)/));
  it("refuses non-positive sizes", () => {
    refuses("id,p,size_mb\na,1,0\n", /apps\.csv:2: size_mb of "a" must be a finite number > 0/);
    refuses("id,p,size_mb\na,1,-5\n", /must be a finite number > 0 \(MB\), found -5/);
  });
  it("refuses a negative p", () => refuses("id,p,size_mb\na,-1,100\n", /apps\.csv:2: p of "a" .* must be a finite number ≥ 0, found -1/));
  it("refuses a missing column, a non-number, an empty file, a header alone", () => {
    refuses("id,size_mb\na,100\n", /apps\.csv:1: missing column "p"/);
    refuses("id,p,size_mb\na,lots,100\n", /apps\.csv:2: column p must be a number, found "lots"/);
    refuses("", /empty; expected a header "id,p,size_mb"/);
    refuses("id,p,size_mb\n", /has a header but no application rows/);
    refuses("id,p,size_mb\na,1\n", /not readable as CSV/);
    refuses("id,p,size_mb\n,1,100\n", /apps\.csv:2: the id is empty/);
  });
  it("validates applications given as data too", () => {
    expect(() => validateApplications([])).toThrow(/no applications/);
    expect(() => validateApplications([{ id: "a", pS: NaN, sizeMb: 1 }])).toThrow(/application 1: p of "a"/);
  });
});

describe("schedule options", () => {
  it("refuses a deadline ≤ 0 and k0 < 0 or fractional", () => {
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 0 })).toThrow(/deadline T must be a finite number of seconds > 0, found 0/);
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: -3 })).toThrow(InputError);
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10, k0: -1 })).toThrow(/k0 .* must be an integer ≥ 0, found -1/);
    expect(() => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10, k0: 1.5 })).toThrow(InputError);
  });
  it("defaults to the published algorithm", () => {
    const options = resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10 });
    expect(options).toMatchObject({ estimator: "static", enumeration: "up-to-k0", criterion: "p", domain: "refuse", k0: 2, truthModel: PAPER_MODEL });
  });
  it("reads the older domain words (a notebook's or a pipeline parameter's) as the current ones, and refuses others naming both", () => {
    const read = (domain: string) => resolveScheduleOptions({ model: PAPER_MODEL, deadlineS: 10, domain: domain as never }).domain;
    expect(["strict", "warn", "refuse", "extrapolate"].map(read)).toEqual(["refuse", "extrapolate", "refuse", "extrapolate"]);
    expect(() => read("clamp")).toThrow(InputError);
    expect(() => read("clamp")).toThrow('the domain policy must be one of refuse (alias strict), extrapolate (alias warn); found "clamp"');
    // A campaign records the current word whichever the settings used.
    const settings = { model: PAPER_MODEL, estimator: "static", parts: ["identical"], seeds: 1, firstSeed: 1, k0s: [0], criteria: ["p"], exact: null, scalingNs: [], scalingSeeds: 1 } as const;
    expect(runCampaign({ ...settings, domain: "warn" as never }).settings.domain).toBe("extrapolate");
  });
});
