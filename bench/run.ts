/**
 * `npm run bench [-- <name>…] [--option…]`: runs every `bench/*.bench.ts` (or those whose
 * name contains one of the arguments), one after the other, after printing the machine.
 * Options (`--100m`) are read by the benchmarks from `process.argv`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { machineLine, type Benchmark } from "./harness";

async function main(): Promise<void> {
  // Arguments starting with "--" are options of the benchmarks themselves (e.g. --100m).
  const filters = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
    .sort();
  console.log(machineLine());
  if (files.length === 0) {
    console.log(`no benchmark matches ${filters.join(", ")}`);
    process.exitCode = 2;
    return;
  }
  for (const file of files) {
    console.log(`\n=== ${file} ===`);
    const module = (await import(join(__dirname, file))) as { default: Benchmark };
    await module.default();
  }
}

void main();
