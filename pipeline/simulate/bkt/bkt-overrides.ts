/**
 * Scenario fields from the command line: every field of a [BKT] scenario has a flag, its
 * name in kebab-case (`--clients 20000`, `--slices-per-job 1,50`, `--transient abort`,
 * `--policies none,periodic,pckp`), and the nested ones one flag per leaf
 * (`--server-mbps`, `--server-connections`, `--speed-mips-mean`, `--speed-mips-sd`).
 * Values are checked with the scenario (bkt-scenario.ts), so a bad one is refused with the
 * field's name.
 */
import { UsageError } from "../../shared/errors";
import { BKT_FIELDS, type BktScenario } from "./bkt-scenario";

const NESTED: Record<string, [keyof BktScenario, string]> = {
  "server-mbps": ["server", "mbps"],
  "server-connections": ["server", "connections"],
  "speed-mips-mean": ["speedMips", "mean"],
  "speed-mips-sd": ["speedMips", "sd"],
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Every flag name, for the command's option table. */
export const BKT_FLAGS: string[] = [...BKT_FIELDS.filter((f) => f !== "server" && f !== "speedMips").map(kebab), ...Object.keys(NESTED)];

function value(field: string, text: string): unknown {
  const trimmed = text.trim();
  if (field === "policies") return trimmed.split(",").map((p) => p.trim()).filter(Boolean);
  if (["slicesPerJob", "sliceHours", "checkpointMbit", "hostMbps"].includes(field)) return trimmed.split(",").map((x) => Number(x.trim()));
  if (field === "trace") return trimmed === "" || trimmed === "null" ? null : trimmed;
  if (field === "downloadOnRestart") {
    if (trimmed !== "true" && trimmed !== "false") throw new UsageError(`--download-on-restart expects true or false, got "${text}"`);
    return trimmed === "true";
  }
  if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

/** The scenario fields the flags set (flag values as parseArgs gives them). */
export function bktOverrides(flags: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of BKT_FIELDS) {
    const text = flags[kebab(field)];
    if (typeof text === "string") out[field] = value(field, text);
  }
  for (const [flag, [field, key]] of Object.entries(NESTED)) {
    const text = flags[flag];
    if (typeof text === "string") out[field] = { ...((out[field] as object) ?? {}), [key]: value(key, text) };
  }
  return out;
}
