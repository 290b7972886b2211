/** How the README test finds command blocks and their markers, and compares sample outputs. */
import { describe, expect, it } from "vitest";
import { commandBlocks, matchesSample } from "./markdown-commands";

describe("command blocks", () => {
  it("are the sh fences, each with its marker and the untagged fence after it as its sample output", () => {
    const markdown = [
      "Text.",
      "```sh",
      "ckpt a",
      "ckpt b",
      "```",
      "```",
      "out",
      "```",
      "",
      "<!-- not run by the README test: needs a cluster -->",
      "",
      "```sh",
      "sbatch x",
      "```",
      "<!-- run by the README test next to the clone's data/ -->",
      "```sh",
      "ckpt place --slices data/place/example-job.csv",
      "```",
      "```csv",
      "a,b",
      "```",
      "```bash",
      "my_app &",
      "```",
    ].join("\n");
    expect(commandBlocks(markdown, "x.md")).toEqual([
      { line: 2, script: "ckpt a\nckpt b", mode: { run: true, cloneData: false }, output: { line: 6, text: "out" } },
      { line: 12, script: "sbatch x", mode: { run: false, reason: "needs a cluster" }, output: null },
      { line: 16, script: "ckpt place --slices data/place/example-job.csv", mode: { run: true, cloneData: true }, output: null },
    ]);
  });

  it("refuse a marker they do not know, and a not-run marker without its reason: a block is never skipped silently", () => {
    expect(() => commandBlocks("<!-- not run by README test: x -->\n```sh\nls\n```\n", "x.md")).toThrow(/x\.md:1: a README-test marker the test does not know/);
    expect(() => commandBlocks("<!-- not run by the README test: -->\n```sh\nls\n```\n", "x.md")).toThrow(/x\.md:1: a README-test marker/);
  });
});

describe("a sample output", () => {
  const printed = ["read 525 rows", "note: the papers' rule (fit only …) leaves too little", "a", "b", "c", "9 of 9 stages ran, 0 skipped, in 12.5 s. Report: r/index.html"].join("\n");

  it("matches what was printed, … standing for lines (alone or as a note) and for text within a line", () => {
    expect(matchesSample(printed, `${printed}\n\n`)).toBe(true);
    expect(matchesSample(["read 525 rows", "note: the papers' rule …", "…", "9 of 9 stages ran, 0 skipped, in … s. Report: r/index.html"].join("\n"), printed)).toBe(true);
    expect(matchesSample(["read 525 rows", "   (… the note, then three lines:)", "9 of 9 stages ran, … s. Report: r/index.html"].join("\n"), printed)).toBe(true);
    expect(matchesSample("…", "")).toBe(true);
  });

  it("does not match what differs: a number, a line more or less, anything after the last line", () => {
    expect(matchesSample(printed.replace("9 of 9", "11 of 11"), printed)).toBe(false);
    expect(matchesSample(printed.replace("read 525 rows", "read 526 rows"), printed)).toBe(false);
    expect(matchesSample(["read 525 rows", "…", "c"].join("\n"), printed)).toBe(false);
    expect(matchesSample(["read 525 rows", "a", "…"].join("\n"), printed)).toBe(false);
    // Characters that mean something in a regular expression are plain text.
    expect(matchesSample("bw(m, V) = a·m²", "bw(m, V) = a·m²")).toBe(true);
    expect(matchesSample("bw(m, V) = a.m²", "bw(m, V) = a·m²")).toBe(false);
  });
});
