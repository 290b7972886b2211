/**
 * One canonical CSV row, given as its fields' texts, into the ledger: accepted into its
 * run or rejected with a reason. This is the reference semantics of a row; the byte-level
 * fast path (`canonical-fast-reader.ts`) implements exactly the same checks in the same
 * order without making strings, and the tests hold the two to identical results.
 *
 * Order of checks: field count, empty run_id, empty node, the numeric checks of
 * `process-values.ts`, then the run-level ones of the ledger (duplicate node, m).
 */
import type { CanonicalLayout } from "./canonical-header";
import { parseDecimal } from "./decimal";
import { explainProcessValuesProblem, processValuesProblem, type NumericColumn } from "./process-values";
import { rejectMessage } from "./reject-reasons";
import type { RowLedger } from "./row-ledger";

export interface RowPosition {
  sourceIndex: number;
  line: number;
  byteStart: number;
  byteEnd: number;
}

export function ingestCanonicalFields(
  fields: readonly string[],
  layout: CanonicalLayout,
  ledger: RowLedger,
  at: RowPosition,
): void {
  const { sourceIndex, line, byteStart, byteEnd } = at;
  const runIdText = layout.runId < fields.length ? fields[layout.runId]! : "";
  const runIdForCount = runIdText === "" ? undefined : runIdText;
  if (fields.length !== layout.fieldCount) {
    const reason = rejectMessage.fieldCount(layout.fieldCount, fields.length);
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "field-count", reason, runIdForCount);
    return;
  }
  if (runIdText === "") {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("run_id"));
    return;
  }
  const node = fields[layout.node]!;
  if (node === "") {
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, "empty-field", rejectMessage.emptyField("node"), runIdText);
    return;
  }
  const m = parseDecimal(fields[layout.m]!);
  const sizeMb = parseDecimal(fields[layout.sizeMb]!);
  const ckptMb = parseDecimal(fields[layout.ckptMb]!);
  const startS = parseDecimal(fields[layout.startS]!);
  const endS = parseDecimal(fields[layout.endS]!);
  const problem = processValuesProblem(m, sizeMb, ckptMb, startS, endS);
  if (problem !== 0) {
    const columnIndex: Record<NumericColumn, number> = {
      m: layout.m,
      size_mb: layout.sizeMb,
      ckpt_mb: layout.ckptMb,
      start_s: layout.startS,
      end_s: layout.endS,
    };
    const { code, reason } = explainProcessValuesProblem(problem, { m, sizeMb, ckptMb, startS, endS }, (c) => fields[columnIndex[c]]!);
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, code, reason, runIdText);
    return;
  }
  const run = ledger.runFor(runIdText, m, sourceIndex, line);
  const attributes = layout.extraIndices.length === 0 ? null : layout.extraIndices.map((i) => fields[i]!);
  ledger.addProcess(run, node, m, sizeMb, ckptMb / (endS - startS), attributes, sourceIndex, line, byteStart, byteEnd, null);
}
