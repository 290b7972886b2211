/**
 * The observations artifact written run by run (`writeObservationsArtifact`, what the CLI
 * does for inputs of any size) is byte for byte the in-memory one (`writeJsonAtomic` of
 * `buildObservationsArtifact`), which fit reads.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonAtomic } from "../../pipeline/shared/atomic-write";
import { ingestFiles, ingestFilesTo, type IngestOptions } from "../../pipeline/ingest/ingest-files";
import { buildObservationsArtifact, parseObservationsArtifact, writeObservationsArtifact } from "../../pipeline/ingest/observations-artifact";
import { summariseRunTable } from "../../pipeline/ingest/summarise-runs";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-artifact-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the streamed observations artifact", () => {
  it.each<[string, string[], string[]]>([
    ["the synthetic campaign, grouped by data set", ["data/traces/synthetic-azur.csv"], ["dataset"]],
    ["a trace with problems and a host-logs campaign", ["data/examples/canonical-with-problems.csv", "data/examples/host-logs"], []],
    ["two traces grouped by an attribute one of them lacks", ["data/traces/vm-2vcpu-ext4-fsync.csv", "data/examples/canonical-with-problems.csv"], ["cluster"]],
  ])("is byte for byte the in-memory one: %s", async (_, paths, groupBy) => {
    const options: IngestOptions = { groupBy };
    const context = { toolVersion: "0.0.0-test", format: "auto", strict: false, groupBy, rejectsFile: "r.csv" };
    const inMemory = join(scratch, "in-memory.json");
    writeJsonAtomic(inMemory, buildObservationsArtifact(await ingestFiles(paths, options), context));
    const streamed = join(scratch, "streamed.json");
    const summary = await ingestFilesTo(paths, options, () => {});
    writeObservationsArtifact(streamed, summary, summariseRunTable(summary.runs, { groupBy }), context);
    expect(readFileSync(streamed, "utf8")).toBe(readFileSync(inMemory, "utf8"));
    expect(parseObservationsArtifact(JSON.parse(readFileSync(streamed, "utf8")), streamed).counts).toEqual(summary.counts);
  });
});
