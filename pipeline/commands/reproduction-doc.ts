/**
 * docs/reproduction.md: the reproduction table summed up per paper, from the reproduce
 * stage's artifact of a default `ckpt pipeline` run — the same stages with their default
 * parameters (the published model, the tables transcribed in data/published/, the schedule
 * stage's default campaign without the scaling part, which only measures time, Daly's
 * periods with the place stage, the [BKT] and [DAS06] grids kept in data/simulations/, the
 * investigations' kept grids and k0 counts), run into a temporary folder up to the
 * `reproduction` artifact (the report is not drawn). A test checks that the committed file
 * is what this writes; regenerate it with `npm run docs`. The report of every pipeline run
 * writes the same page for its own rows (`reproduction.md`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { reproductionMarkdown } from "../report/reproduction/reproduction-summary";
import type { ReproductionRow } from "../reproduce/reproduction";
import { DEFAULT_TRACES, pipelinePlan, stagesUpTo } from "../run";
import { artifactPath, runStages } from "../runner/run-stages";
import { writeFileAtomic } from "../shared/atomic-write";
import { projectRoot } from "../shared/version";
import { DEFAULT_SCHEDULE_PARAMETERS } from "../stages/schedule-stage";

export const REPRODUCTION_DOC_PATH = join("docs", "reproduction.md");

/** The rows of a default pipeline run (see the module docblock). */
export async function defaultReproductionRows(root = projectRoot()): Promise<ReproductionRow[]> {
  const plan = pipelinePlan("reproduction", false);
  const out = mkdtempSync(join(tmpdir(), "ckpt-reproduction-doc-"));
  try {
    await runStages(stagesUpTo(plan.stages, "reproduction"), {
      out,
      traces: DEFAULT_TRACES.map((t) => relative(process.cwd(), resolve(root, t))),
      parameterOverrides: {
        ...plan.parameters,
        "schedule.campaign.parts": DEFAULT_SCHEDULE_PARAMETERS.campaign.parts.filter((part) => part !== "scaling"),
      },
      codeRoot: join(__dirname, ".."),
      projectRoot: root,
    });
    return JSON.parse(readFileSync(join(out, artifactPath("reproduction")), "utf8")) as ReproductionRow[];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function reproductionDoc(root = projectRoot()): Promise<string> {
  return reproductionMarkdown(await defaultReproductionRows(root), "a default `ckpt pipeline` run: `npm run docs` regenerates this page");
}

if (require.main === module) {
  void reproductionDoc().then((page) => {
    writeFileAtomic(join(projectRoot(), REPRODUCTION_DOC_PATH), page);
    console.log(`wrote ${REPRODUCTION_DOC_PATH}`);
  });
}
