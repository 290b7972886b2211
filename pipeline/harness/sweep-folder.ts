/**
 * Which folders `ckpt harness run --out` may write into (issue #12.2): a missing or empty
 * folder, or a sweep folder of ours (it has our plan.json). Anything else holds files the
 * harness did not write — a user's trace.csv would be replaced by ours — and is refused
 * with what is in it. A first start killed before it wrote plan.json leaves only our lease
 * and the copy of the sweep file; those are recognised too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../shared/errors";
import { fileSystemError } from "../shared/path-checks";

/**
 * What may be there before plan.json: the lease of a first start (and its temporary link
 * names), and what `ckpt harness batch` put there for the job — its script, the node list
 * the script writes, the scheduler's output files.
 */
const BEFORE_PLAN = /^(lease\.json|\.lease\..*\.tmp|lease\.json\.dead\..*|job\.(oar|slurm)\.sh|nodes\.txt|slurm-\d+(_\d+)?\.out|oar-\d+\.std(out|err))$/;

export function checkSweepFolder(outDir: string, sweepText?: string): void {
  let entries: string[];
  try {
    if (!statSync(outDir).isDirectory()) throw new InputError(`--out ${outDir} is a file, not a folder; name a new or empty folder for the sweep`);
    entries = readdirSync(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    if (error instanceof InputError) throw error;
    throw fileSystemError(error, outDir);
  }
  // readStoredPlan (stored-plan.ts) then checks that plan.json is one of ours.
  if (entries.includes("plan.json")) return;
  const foreign = entries.filter((name) => !BEFORE_PLAN.test(name) && !(name === "sweep.json" && sweepText !== undefined && sameText(join(outDir, name), sweepText)));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? `, … (${foreign.length} in all)` : "");
    throw new InputError(
      `--out ${outDir} already holds files the harness did not write (${shown}); it would replace some of them (e.g. trace.csv). ` +
        `Name a new or empty folder, or the folder of a sweep started before (with --resume)`,
    );
  }
}

function sameText(path: string, text: string): boolean {
  try {
    return readFileSync(path, "utf8") === text;
  } catch {
    return false;
  }
}
