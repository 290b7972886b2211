/**
 * The C references of `npm run bench`, compiled at bench time with the system compiler
 * (`cc -O2`) from the sources next to this file, so that each ratio is measured against a
 * reference built on the same machine in the same run. Binaries go to bench/out/reference/.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type CReference = "schedule-ckpt" | "dp-placer" | "ingest-csv";

export const REFERENCE_FOLDER = join(__dirname, "..", "out", "reference");

/** `cc --version`'s first line, or a message saying how to get a compiler. */
export function compilerVersion(): string {
  try {
    return execFileSync("cc", ["--version"], { encoding: "utf8" }).split("\n")[0]!.trim();
  } catch (error) {
    throw new Error("the benchmark's references need a C compiler on the PATH as `cc` (Debian: apt-get install gcc libc6-dev)", { cause: error });
  }
}

/** Compile `bench/reference/<name>.c` with `cc -O2`; returns the binary's path. */
export function compileReference(name: CReference): string {
  mkdirSync(REFERENCE_FOLDER, { recursive: true });
  const binary = join(REFERENCE_FOLDER, name);
  execFileSync("cc", ["-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-o", binary, join(__dirname, `${name}.c`), "-lm"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return binary;
}

/** Write an input file for a reference into bench/out/reference/; returns its path. */
export function writeReferenceInput(fileName: string, text: string): string {
  mkdirSync(REFERENCE_FOLDER, { recursive: true });
  const path = join(REFERENCE_FOLDER, fileName);
  writeFileSync(path, text);
  return path;
}

/** Run a compiled reference and return its standard output. */
export function runReference(binary: string, args: string[]): string {
  return execFileSync(binary, args, { encoding: "utf8", maxBuffer: 64 << 20 });
}
