/**
 * [DAS06] scenario fields from the command line: one flag per field in kebab-case
 * (`--machine-set M04`, `--tasks 75`, `--task-cpu-s 7200`, `--checkpoint-store private`,
 * `--policies FCFS,FCFS-TR`, `--start-times weekend` or `--start-times 28800,115200`,
 * `--window-days 0,39`), and one
 * per leaf of the nested ones (`--synthetic-seed`, `--synthetic-machines`, `--synthetic-days`,
 * `--tolerance-night`, …). Values are checked with the scenario (das06-scenario.ts).
 */
import { DAS06_FIELDS, type Das06Scenario } from "./das06-scenario";

const NESTED: Record<string, [keyof Das06Scenario, string]> = {
  "synthetic-seed": ["synthetic", "seed"],
  "synthetic-machines": ["synthetic", "machines"],
  "synthetic-days": ["synthetic", "days"],
  "tolerance-night": ["tolerance", "night"],
  "tolerance-weekend": ["tolerance", "weekend"],
  "tolerance-day-base": ["tolerance", "dayBase"],
  "tolerance-day-per-hour": ["tolerance", "dayPerHour"],
  "tolerance-day-max": ["tolerance", "dayMax"],
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const DAS06_FLAGS: string[] = [...DAS06_FIELDS.filter((f) => f !== "synthetic" && f !== "tolerance").map(kebab), ...Object.keys(NESTED)];

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function value(field: string, text: string): unknown {
  const trimmed = text.trim();
  if (field === "policies") return trimmed.split(",").map((p) => p.trim()).filter(Boolean);
  if (field === "startTimes") return trimmed === "weekday" || trimmed === "weekend" ? trimmed : trimmed.split(",").map((x) => Number(x.trim()));
  if (field === "trace") return trimmed === "" || trimmed === "null" || trimmed === "synthetic" ? null : trimmed;
  if (field === "windowDays") return trimmed === "" || trimmed === "null" || trimmed === "all" ? null : trimmed.split(",").map((x) => Number(x.trim()));
  if (field === "mondayOffsetS" && (trimmed === "" || trimmed === "null" || trimmed === "utc")) return null;
  return NUMBER.test(trimmed) ? Number(trimmed) : trimmed;
}

export function das06Overrides(flags: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of DAS06_FIELDS) {
    const text = flags[kebab(field)];
    if (typeof text === "string") out[field] = value(field, text);
  }
  for (const [flag, [field, key]] of Object.entries(NESTED)) {
    const text = flags[flag];
    if (typeof text === "string") out[field] = { ...((out[field] as object) ?? {}), [key]: value(key, text) };
  }
  return out;
}
