/** The simulations' progress bar: redrawn in place on a terminal, a few whole lines elsewhere. */
import { describe, expect, it } from "vitest";
import { formatProgressBar, progressPrinter } from "../../pipeline/simulate/progress-bar";

describe("the progress bar", () => {
  it("fills in proportion and says what runs", () => {
    expect(formatProgressBar({ fraction: 0.5, stage: "run 2/4 (seed 1, pckp)", detail: "3/10 jobs" }, 8)).toBe("[####....]  50%  run 2/4 (seed 1, pckp)  3/10 jobs");
    expect(formatProgressBar({ fraction: 1.2, stage: "done", detail: "" }, 4)).toBe("[####] 100%  done");
  });

  it("redraws one line on a terminal, and off it prints a line per stage and at most one every 10 s", () => {
    const written: string[] = [];
    const tty = progressPrinter({ tty: true, write: (t) => written.push(t), line: () => expect.fail("no whole lines on a terminal") });
    tty({ fraction: 0.1, stage: "a", detail: "" });
    tty({ fraction: 0.2, stage: "a", detail: "" });
    tty.end();
    expect(written.map((t) => t.startsWith("\r\x1b[K") || t === "\n")).toEqual([true, true, true]);

    let clock = 0;
    const lines: string[] = [];
    const log = progressPrinter({ tty: false, write: () => expect.fail("no redraw off a terminal"), line: (t) => lines.push(t), now: () => clock });
    for (const [t, stage] of [[0, "a"], [5_000, "a"], [9_000, "a"], [10_500, "a"], [11_000, "b"], [12_000, "b"]] as const) {
      clock = t;
      log({ fraction: t / 20_000, stage, detail: `at ${t}` });
    }
    log.end();
    expect(lines.map((l) => l.split("  ").pop())).toEqual(["at 0", "at 10500", "at 11000"]);
  });
});
