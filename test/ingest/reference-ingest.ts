/**
 * A naive reading of the ingest rules (docs/science.md §3.1, pipeline/ingest/README.md), to
 * test the streaming ledger against: every row held in memory, runs as plain objects,
 * the run-level checks applied at the end of each file — no sealing, no re-reading, no
 * spooling. Row-level verdicts come from `classifyCanonicalFields` (the reference row
 * semantics, tested on its own); lines are split with csv-parse.
 */
import { parse } from "csv-parse/sync";
import { parseCanonicalHeader } from "../../pipeline/ingest/canonical-header";
import { classifyCanonicalFields } from "../../pipeline/ingest/canonical-row";
import type { RunObservation } from "../../pipeline/ingest/observations";

export interface ReferenceResult {
  runs: RunObservation[];
  rejects: { file: string; line: number; code: string }[];
  read: number;
}

function fieldsOf(text: string): string[] | null {
  try {
    const records = parse(text, { relax_column_count: true, relax_quotes: true, record_delimiter: ["\r\n", "\n"] }) as string[][];
    return records.length === 1 ? records[0]! : null;
  } catch {
    return null;
  }
}

export function referenceIngest(files: { name: string; text: string }[]): ReferenceResult {
  const result: ReferenceResult = { runs: [], rejects: [], read: 0 };
  for (const { name, text } of files) {
    const lines = text.replace(/^\uFEFF/, "").split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    type Run = { m: number; rows: { line: number; node: string; sizeMb: number; bw: number; extras: string[] }[]; conflict: boolean; ownRejects: number };
    const runs = new Map<string, Run>();
    const ownRejects = new Map<string, number>();
    const rejects: { line: number; code: string }[] = [];
    let layout: ReturnType<typeof parseCanonicalHeader> | null = null;
    lines.forEach((raw, index) => {
      const line = index + 1;
      const content = index < lines.length - 1 || text.endsWith("\n") ? raw.replace(/\r$/, "") : raw;
      if (content === "" || content.startsWith("#")) return;
      const fields = fieldsOf(content);
      if (layout === null) {
        layout = parseCanonicalHeader(fields!, name, line);
        return;
      }
      result.read++;
      if (fields === null) {
        rejects.push({ line, code: "malformed-csv" });
        return;
      }
      const verdict = classifyCanonicalFields(fields, layout);
      if (!verdict.valid) {
        rejects.push({ line, code: verdict.code });
        if (verdict.runId !== undefined) ownRejects.set(verdict.runId, (ownRejects.get(verdict.runId) ?? 0) + 1);
        return;
      }
      let run = runs.get(verdict.runId);
      if (run === undefined) runs.set(verdict.runId, (run = { m: verdict.m, rows: [], conflict: false, ownRejects: 0 }));
      if (run.rows.some((r) => r.node === verdict.node)) {
        rejects.push({ line, code: "duplicate-process" });
        ownRejects.set(verdict.runId, (ownRejects.get(verdict.runId) ?? 0) + 1);
        return;
      }
      if (verdict.m !== run.m) run.conflict = true;
      run.rows.push({ line, node: verdict.node, sizeMb: verdict.sizeMb, bw: verdict.bwMbPerS, extras: layout.extraIndices.map((i) => fields[i]!) });
    });
    if (layout === null) throw new Error(`${name}: no header`);
    const extraNames = (layout as ReturnType<typeof parseCanonicalHeader>).extraNames;
    for (const [runId, run] of runs) {
      if (run.conflict || run.rows.length !== run.m) {
        for (const r of run.rows) rejects.push({ line: r.line, code: run.conflict ? "contradicting-m" : "run-size-mismatch" });
        continue;
      }
      let bw = 0;
      let size = 0;
      for (const r of run.rows) {
        bw += r.bw;
        size += r.sizeMb;
      }
      const observation: RunObservation = {
        runId,
        m: run.m,
        vGb: size / 1000,
        aggregatedBwMbPerS: bw,
        uniformSizeMb: run.rows.every((r) => r.sizeMb === run.rows[0]!.sizeMb) ? run.rows[0]!.sizeMb : null,
        source: name,
      };
      const attributes: Record<string, string> = {};
      extraNames.forEach((column, j) => {
        if (run.rows.every((r) => r.extras[j] === run.rows[0]!.extras[j])) attributes[column] = run.rows[0]!.extras[j]!;
      });
      if (Object.keys(attributes).length > 0) observation.attributes = attributes;
      result.runs.push(observation);
    }
    rejects.sort((a, b) => a.line - b.line);
    result.rejects.push(...rejects.map((r) => ({ file: name, ...r })));
  }
  return result;
}
