/**
 * The reject messages of pipeline/ingest/reject-reasons.ts word for word where they branch
 * (singular and plural, shortened values, which cause), and the summary that refuses an
 * input none of whose rows was accepted: its reasons ordered by count, at most `limit`,
 * each with its first row. The expected texts are written from the rules in the file's
 * comments (what was expected, what was found, how to fix it).
 */
import { describe, expect, it } from "vitest";
import { REJECT_CODES, nothingAcceptedMessage, rejectMessage, shown } from "../../pipeline/ingest/reject-reasons";

describe("shown", () => {
  it("quotes a value of up to 40 characters whole, a longer one as its first 37 and '...'", () => {
    const forty = "x".repeat(40);
    expect(shown(forty)).toBe(`"${forty}"`);
    expect(shown(`${forty}y`)).toBe(`"${"x".repeat(37)}..."`);
    expect(shown('a"b')).toBe('"a\\"b"');
  });
});

describe("the reject messages", () => {
  it("say missing or extra fields by the count", () => {
    expect(rejectMessage.fieldCount(7, 6)).toBe("missing fields: expected 7 fields (as in the header), found 6; check for a lost or extra comma, or quote a value that contains a comma");
    expect(rejectMessage.fieldCount(7, 8)).toMatch(/^extra fields: expected 7 fields \(as in the header\), found 8;/);
  });

  it("hint at spaces only when the value has them around it", () => {
    expect(rejectMessage.nonNumeric("end_s", "ten")).toBe('end_s must be a finite decimal number, found "ten"');
    expect(rejectMessage.nonNumeric("end_s", " 10")).toBe('end_s must be a finite decimal number, found " 10" (spaces around values are not allowed)');
    expect(rejectMessage.nonNumeric("end_s", "10\t")).toMatch(/\(spaces around values are not allowed\)$/);
  });

  it("name the values of the numeric checks", () => {
    expect(rejectMessage.emptyField("node")).toBe("node is empty; every row needs a node");
    expect(rejectMessage.invalidM(1.5)).toBe("m must be a whole number ≥ 1 (processes checkpointed together), found 1.5");
    expect(rejectMessage.nonPositiveSize(-2)).toBe("size_mb must be > 0 (the application's memory in MB), found -2");
    expect(rejectMessage.nonPositiveCkpt(0)).toBe("ckpt_mb must be > 0 (MB written by the checkpoint), found 0");
    expect(rejectMessage.endBeforeStart(10, 5)).toBe("end_s (5) is before start_s (10); are the two columns swapped?");
    expect(rejectMessage.zeroDuration(3)).toBe("end_s equals start_s (3): a checkpoint takes a positive time, the bandwidth would be infinite");
  });

  it("say why a bandwidth is out of range: zero, an overflow, or m times it overflowing", () => {
    const tail = ": not a measurable bandwidth; check the units of ckpt_mb (MB) and of the times (s)";
    // 1 / (1e308 − 0) = 1e-308 > 0 would be fine; 1e-300 / 1e300 underflows to 0.
    expect(rejectMessage.bandwidthOutOfRange(1, 1e-300, 0, 1e300)).toBe(`the bandwidth ckpt_mb / (end_s − start_s) = 1e-300 / (1e+300 − 0) is 0 MB/s${tail}`);
    expect(rejectMessage.bandwidthOutOfRange(1, 1e300, 0, 1e-300)).toBe(`the bandwidth ckpt_mb / (end_s − start_s) = 1e+300 / (1e-300 − 0) overflows${tail}`);
    // 1e308 / 1 = 1e308 MB/s, finite; 2 of them overflow.
    expect(rejectMessage.bandwidthOutOfRange(2, 1e308, 0, 1)).toBe(`the bandwidth ckpt_mb / (end_s − start_s) = 1e+308 / (1 − 0) is 1e+308 MB/s, and m = 2 processes at that rate overflow${tail}`);
  });

  it("count a run's valid and other rejected rows, in the singular and the plural", () => {
    const tail = "; a run's aggregated bandwidth needs all of its m processes, so the whole run is rejected";
    expect(rejectMessage.runSizeMismatch("r", 3, 1, 0)).toBe(`run "r" declares m = 3 but has 1 valid row${tail}`);
    expect(rejectMessage.runSizeMismatch("r", 3, 2, 1)).toBe(`run "r" declares m = 3 but has 2 valid rows (1 other row was rejected)${tail}`);
    expect(rejectMessage.runSizeMismatch("r", 3, 0, 3)).toBe(`run "r" declares m = 3 but has 0 valid rows (3 other rows were rejected)${tail}`);
    const benchmark = "; a run's aggregated bandwidth needs all of its writers, so the whole run is rejected";
    expect(rejectMessage.incompleteBenchmarkRun("g", 4, 1)).toBe(`run "g" has 4 writers of which 1 was rejected${benchmark}`);
    expect(rejectMessage.incompleteBenchmarkRun("g", 4, 2)).toBe(`run "g" has 4 writers of which 2 were rejected${benchmark}`);
  });

  it("list a run's contradicting m values with where each was met", () => {
    expect(rejectMessage.contradictingM("r", [{ m: 2, at: "t.csv:2" }, { m: 3, at: "t.csv:5" }])).toBe(
      'run "r" mixes contradicting m (m = 2 at t.csv:2, m = 3 at t.csv:5); all rows of a run must give the same m, so the whole run is rejected',
    );
    expect(rejectMessage.duplicateProcess("r", "n1", "t.csv:2")).toBe('duplicate process: run "r" already has node "n1" (first at t.csv:2); only the first row counts in the run');
  });

  it("say the line limit with its thousands separated, and the line's size when known", () => {
    expect(rejectMessage.lineTooLong(1_048_576)).toBe("the line is longer than the 1,048,576 bytes a trace row may have; is a line break missing?");
    expect(rejectMessage.lineTooLong(1_048_576, 2_000_000)).toBe("the line is longer than the 1,048,576 bytes a trace row may have (2,000,000 bytes); is a line break missing?");
  });

  it("word the other formats' reasons", () => {
    expect(rejectMessage.malformedCsv("a quote does not close")).toBe('malformed CSV: a quote does not close; quote the whole field ("…") and double every quote inside it ("")');
    expect(rejectMessage.malformedEvent("no time")).toBe('malformed event line: no time; expected "<time_s> ckpt_start pid=<pid> m=<m> size_mb=<MB>" or "<time_s> ckpt_end pid=<pid> ckpt_bytes=<bytes>"');
    expect(rejectMessage.startWithoutEnd("7", null)).toBe('ckpt_start of pid "7" has no ckpt_end before the end of the log');
    expect(rejectMessage.startWithoutEnd("7", "h.log:9")).toBe('ckpt_start of pid "7" has no ckpt_end before the next ckpt_start of that pid (h.log:9)');
    expect(rejectMessage.endWithoutStart("7")).toBe('ckpt_end of pid "7" has no ckpt_start before it');
    expect(rejectMessage.notAWrite("a read phase")).toBe("a read phase: bw(m, V) is the bandwidth of writing checkpoints, so only write phases are read");
    expect(rejectMessage.jobError("j", 28)).toBe('fio job "j" ended with error 28: what it wrote is not a finished checkpoint, so its run is not used either');
    expect(rejectMessage.malformedResult("no bw")).toBe("malformed result: no bw");
    expect(rejectMessage.releaseLogLine("no end")).toBe("release log: no end");
  });

  it("has 19 codes, each once", () => {
    expect(REJECT_CODES).toHaveLength(19);
    expect(new Set(REJECT_CODES).size).toBe(19);
    expect(REJECT_CODES.slice(0, 3)).toEqual(["field-count", "empty-field", "non-numeric"]);
  });
});

describe("nothingAcceptedMessage", () => {
  const first = (line: number, reason: string, raw = `row ${line}`) => ({ file: "t.csv", line, reason, raw });

  it("shows the reasons by count, then by code, each with its first row, and where the rejects are", () => {
    const byCode = { "zero-duration": 2, "field-count": 5, "empty-field": 2 };
    const firsts = new Map([
      ["field-count", first(2, "missing fields")],
      ["empty-field", first(4, "node is empty")],
      ["zero-duration", first(3, "end_s equals start_s")],
    ]);
    // 9 rows; field-count (5) first, then the ties of 2 by code: empty-field before zero-duration.
    expect(nothingAcceptedMessage(9, byCode, firsts, "out.rejects.csv")).toBe(
      [
        "all 9 rows were rejected (every one, with its reason, is in out.rejects.csv). The most frequent reasons, with the first row of each:",
        "  5 × field-count: t.csv:2: missing fields",
        "      row 2",
        "  2 × empty-field: t.csv:4: node is empty",
        "      row 4",
        "  2 × zero-duration: t.csv:3: end_s equals start_s",
        "      row 3",
      ].join("\n"),
    );
  });

  it("says 'its only row', 'the reason', omits a missing first row, and shortens a long row to 160 characters", () => {
    const raw = "y".repeat(161);
    expect(nothingAcceptedMessage(1, { "non-numeric": 1 }, new Map([["non-numeric", first(2, "x is bad", raw)]]), null)).toBe(
      `its only row was rejected. The reason, with the first row of each:\n  1 × non-numeric: t.csv:2: x is bad\n      ${"y".repeat(160)}…`,
    );
    expect(nothingAcceptedMessage(1, { "non-numeric": 1 }, new Map([["non-numeric", first(2, "x", "z".repeat(160))]]), null)).toMatch(new RegExp(`\\n      z{160}$`));
    expect(nothingAcceptedMessage(2500, { "non-numeric": 2500 }, new Map(), null)).toBe("all 2,500 rows were rejected. The reason, with the first row of each:\n  2,500 × non-numeric");
  });

  it("lists at most `limit` reasons and counts the others, in the singular and the plural", () => {
    const byCode = { "field-count": 4, "empty-field": 3, "non-numeric": 2, "invalid-m": 1 };
    const lines = (limit: number) => nothingAcceptedMessage(10, byCode, new Map(), null, limit).split("\n").slice(1);
    expect(lines(2)).toEqual(["  4 × field-count", "  3 × empty-field", "  … and 2 other reasons"]);
    expect(lines(3)).toEqual(["  4 × field-count", "  3 × empty-field", "  2 × non-numeric", "  … and 1 other reason"]);
    expect(lines(4)).toHaveLength(4);
    // The default limit is 5: six reasons show five and one more.
    const six = { ...byCode, "zero-duration": 1, "end-before-start": 1 };
    expect(nothingAcceptedMessage(12, six, new Map(), null).split("\n").slice(-1)).toEqual(["  … and 1 other reason"]);
  });
});
