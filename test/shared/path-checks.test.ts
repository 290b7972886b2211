/** The shared path checks: each wrong path gets an InputError that says what and how to fix it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkInputPath, checkOutputFile, fileSystemProblem } from "../../pipeline/shared/path-checks";
import { refusal } from "../helpers";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-paths-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = join(scratch, "trace.csv");
writeFileSync(file, "x\n");
const folder = join(scratch, "folder");
mkdirSync(folder);
const fifo = join(scratch, "fifo");
execFileSync("mkfifo", [fifo]);
const long = "a".repeat(300);

describe("checkInputPath", () => {
  it("accepts a readable file or folder as asked, and says which", () => {
    expect(checkInputPath(file)).toBe("file");
    expect(checkInputPath(folder, { kind: "directory" })).toBe("directory");
    expect(checkInputPath(folder, { kind: "file-or-directory" })).toBe("directory");
  });

  it.each([
    ["a missing file", () => checkInputPath(join(scratch, "nope.csv"), { flag: "--model" }), /^--model .*nope\.csv: no such file or directory \(check the spelling/],
    ["a name of 300 characters", () => checkInputPath(join(scratch, `${long}.csv`)), /the name "a{20}…a{8}\.csv" is 304 bytes long; file systems allow at most 255 bytes per name/],
    ["a file under a file", () => checkInputPath(join(file, "x.csv")), /trace\.csv is a file, not a folder, so nothing can be inside it/],
    ["a folder where a file is expected", () => checkInputPath(folder, { what: "model" }), /folder is a folder; expected a model \(a file\)/],
    ["a file where a folder is expected", () => checkInputPath(file, { kind: "directory" }), /trace\.csv is a file; expected a folder/],
    ["a FIFO", () => checkInputPath(fifo), /fifo is a named pipe \(FIFO\), not a regular file: .*save the data to a file first/],
    ["/dev/null", () => checkInputPath("/dev/null"), /\/dev\/null is a character device, not a regular file/],
    ["an empty path", () => checkInputPath("", { flag: "--slices" }), /--slices is an empty path/],
  ])("refuses %s", (_, check, message) => {
    expect(refusal(check)).toMatch(message);
  });
});

describe("checkOutputFile", () => {
  it("accepts a new file, in a folder that does not exist yet", () => {
    checkOutputFile(join(scratch, "out.json"), { flag: "--out" });
    checkOutputFile(join(scratch, "new", "deeper", "out.json"), { flag: "--out" });
    checkOutputFile(file, { flag: "--out" }); // replacing an existing file is fine
  });

  it.each([
    ["a folder", () => checkOutputFile(folder, { flag: "--out" }), /^--out .*folder is a folder; give a file name inside it, e\.g\. --out .*folder\/results\.json/],
    ["a path ending in /", () => checkOutputFile(`${scratch}/new/`, { flag: "--out" }), /names a folder; give a file name inside it/],
    ["a file under a file", () => checkOutputFile(join(file, "out.json"), { flag: "--out" }), /trace\.csv is a file, not a folder, so .* cannot be created inside it/],
    ["a name of 300 characters", () => checkOutputFile(join(scratch, `${long}.json`), { flag: "--out" }), /^--out: .*is 305 bytes long; file systems allow at most 255 bytes per name/],
    ["a device", () => checkOutputFile("/dev/null", { flag: "--out" }), /--out \/dev\/null is a character device, not a regular file/],
    ["one of the inputs", () => checkOutputFile(file, { flag: "--out", inputs: [file] }), /is also an input; writing it would destroy the input/],
    ["a file inside an input folder", () => checkOutputFile(join(folder, "o.json"), { flag: "--rejects", inputs: [folder] }), /--rejects .* is inside the input folder .*folder, whose files are read as inputs/],
    ["an empty path", () => checkOutputFile("", { flag: "--out" }), /--out is an empty path; give a file name/],
  ])("refuses %s", (_, check, message) => {
    expect(refusal(check)).toMatch(message);
  });
});

describe("fileSystemProblem", () => {
  it("words the errors met after the checks", () => {
    expect(fileSystemProblem({ code: "ENOSPC" }, "o.json")).toBe("no space left on the device while writing o.json; free some space or write elsewhere");
    expect(fileSystemProblem({ code: "EROFS" }, "o.json")).toMatch(/read-only file system/);
    expect(fileSystemProblem(Object.assign(new Error("odd"), { code: "EWHATEVER" }), "o.json")).toBe("o.json: odd");
  });
});
