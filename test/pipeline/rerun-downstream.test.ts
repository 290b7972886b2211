/**
 * The skip rules on the real pipeline: a second run skips every stage; editing one trace
 * file reruns exactly the stages downstream of it and says which file changed (the
 * pipeline's traces: everything but this machine's branch; this machine's trace: its own
 * branch and the report); a place parameter or the place stage's input file reruns place
 * and the report only.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../pipeline/run";
import { projectRoot } from "../../pipeline/shared/version";
import { WHOLE_PIPELINE_TIMEOUT_MS } from "../helpers";

const dir = mkdtempSync(join(tmpdir(), "ckpt-rerun-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ran = (run: Awaited<ReturnType<typeof runPipeline>>) => run.outcomes.filter((o) => o.ran).map((o) => o.name);

describe("pipeline reruns", () => {
  it("skip what is up to date and rerun exactly what depends on a change", async () => {
    const trace = join(dir, "trace.csv");
    copyFileSync(join(projectRoot(), "data", "traces", "synthetic-azur.csv"), trace);
    const job = join(dir, "job.csv");
    copyFileSync(join(projectRoot(), "data", "place", "example-job.csv"), job);
    const out = join(dir, "out");
    const machineTrace = join(dir, "machine.csv");
    copyFileSync(join(projectRoot(), "data", "traces", "vm-2vcpu-ext4-fsync.csv"), machineTrace);
    const options = {
      out,
      traces: [trace],
      // The reproduction's stages on traces of one's own (a cluster's report would leave out the measured clusters and the simulators).
      mode: "reproduction" as const,
      parameterOverrides: {
        "place.scenarios.availability.slices": relative(projectRoot(), job),
        "place.simulations": 2000,
        "ingest-machine.traces": [relative(projectRoot(), machineTrace)],
      },
    };

    expect(ran(await runPipeline(options))).toEqual(["ingest", "fit", "turn-down", "ingest-machine", "fit-machine", "ingest-nfs", "fit-nfs", "schedule", "place", "simulate-bkt", "simulate-das06", "investigations", "reproduce", "report"]);
    const second = await runPipeline(options);
    expect(ran(second)).toEqual([]);
    expect(second.outcomes.every((o) => /unchanged/.test(o.reasons[0]!))).toBe(true);

    // Touching without changing the content changes nothing.
    writeFileSync(trace, readFileSync(trace));
    expect(ran(await runPipeline(options))).toEqual([]);

    // One end time of one row changes: ingest reruns, and everything that reads its output
    // (not ScheduleCkpt's campaigns: under the published model they do not read the fit).
    const text = readFileSync(trace, "utf8");
    const lines = text.split("\n");
    const fields = lines[1]!.split(",");
    fields[6] = String(Number(fields[6]) + 0.5);
    lines[1] = fields.join(",");
    writeFileSync(trace, lines.join("\n"));
    const edited = await runPipeline({ ...options, explain: true });
    expect(ran(edited)).toEqual(["ingest", "fit", "turn-down", "place", "reproduce", "report"]);
    expect(edited.outcomes[0]!.reasons).toEqual([`input files changed: ${trace} (modified)`]);
    expect(edited.outcomes[1]!.reasons).toEqual(["input artifacts changed: observations (modified)"]);

    // This machine's trace: only its branch and the report.
    writeFileSync(machineTrace, readFileSync(machineTrace, "utf8").replace(/,4\.713975,/, ",4.813975,"));
    const machine = await runPipeline(options);
    expect(ran(machine)).toEqual(["ingest-machine", "fit-machine", "report"]);
    expect(machine.outcomes.find((o) => o.name === "ingest-machine")!.reasons[0]).toMatch(/^input files changed: .*machine\.csv \(modified\)$/);

    // The place stage's own inputs: only place, what reads its placements (reproduce, the report) rerun.
    expect(ran(await runPipeline({ ...options, parameterOverrides: { ...options.parameterOverrides, "place.seed": 2 } }))).toEqual(["place", "reproduce", "report"]);
    writeFileSync(job, `${readFileSync(job, "utf8")}3600,60\n`);
    const jobRun = await runPipeline({ ...options, parameterOverrides: { ...options.parameterOverrides, "place.seed": 2 } });
    expect(ran(jobRun)).toEqual(["place", "reproduce", "report"]);
    expect(jobRun.outcomes.find((o) => o.name === "place")!.reasons[0]).toMatch(/^input files changed: .*job\.csv \(modified\)$/);
  }, WHOLE_PIPELINE_TIMEOUT_MS);
});
