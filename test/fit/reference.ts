/**
 * The committed reference values (test/fit/reference/reference-values.json, produced by
 * the command in its "command" field) and the data sets they were computed on.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FitSample } from "../../pipeline/fit/least-squares";

const folder = join(__dirname, "reference");

export interface ReferenceFit {
  dataSet: string;
  form: "paper" | "full";
  n: number;
  rank: number;
  rawConditionNumber: number;
  scaledConditionNumber: number;
  coefficients: Record<string, number>;
  standardErrors: Record<string, number>;
  ci95: Record<string, [number, number]>;
  rSquared: number;
  adjustedRSquared: number;
  rmse: number;
  mae: number;
  residualStandardError: number;
  degreesOfFreedom: number;
  tQuantile975: number;
}

export interface ReferenceValues {
  command: string;
  fits: ReferenceFit[];
  tQuantiles: { p: number; dof: number; mpmath: number; scipy: number }[];
  tCdf: { t: number; dof: number; mpmath: number; scipy: number }[];
  peaks: Record<"D1" | "D2" | "D3", { sizesMb: number[]; curve: number[]; peak: { m: number; bw: number } }>;
}

export const reference = JSON.parse(readFileSync(join(folder, "reference-values.json"), "utf8")) as ReferenceValues;

/** A committed data set (`m,v_gb,bw_mb_per_s`) as fit samples. */
export function referenceSamples(file: string): FitSample[] {
  const lines = readFileSync(join(folder, file), "utf8").trim().split("\n").slice(1);
  return lines.map((line) => {
    const [m, vGb, bw] = line.split(",").map(Number);
    return { m: m!, vGb: vGb!, bwMbPerS: bw! };
  });
}
