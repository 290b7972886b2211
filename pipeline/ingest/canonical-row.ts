/**
 * One canonical CSV row, given as its fields' texts: its verdict, and its way into the
 * ledger. This is the reference semantics of a row; the byte-level fast path
 * (`canonical-fast-reader.ts`) implements exactly the same checks in the same order
 * without making strings, and the tests hold the two to identical results.
 *
 * Order of checks: field count, empty run_id, empty node, the numeric checks of
 * `process-values.ts`, then the run-level ones of the ledger (duplicate node, m).
 */
import type { CanonicalLayout } from "./canonical-header";
import { parseDecimal } from "./decimal";
import { explainProcessValuesProblem, processValuesProblem, type NumericColumn } from "./process-values";
import { rejectMessage, type RejectCode } from "./reject-reasons";
import type { RowLedger } from "./row-ledger";

export interface RowPosition {
  sourceIndex: number;
  line: number;
  byteStart: number;
  byteEnd: number;
}

/** A row's verdict before the run-level checks. */
export type CanonicalRowVerdict =
  | { valid: false; code: RejectCode; reason: string; runId: string | undefined }
  | { valid: true; runId: string; node: string; m: number; sizeMb: number; bwMbPerS: number };

export function classifyCanonicalFields(fields: readonly string[], layout: CanonicalLayout): CanonicalRowVerdict {
  const runIdText = layout.runId < fields.length ? fields[layout.runId]! : "";
  const runId = runIdText === "" ? undefined : runIdText;
  if (fields.length !== layout.fieldCount) {
    return { valid: false, code: "field-count", reason: rejectMessage.fieldCount(layout.fieldCount, fields.length), runId };
  }
  if (runIdText === "") return { valid: false, code: "empty-field", reason: rejectMessage.emptyField("run_id"), runId };
  const node = fields[layout.node]!;
  if (node === "") return { valid: false, code: "empty-field", reason: rejectMessage.emptyField("node"), runId };
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
    return { valid: false, code, reason, runId };
  }
  return { valid: true, runId: runIdText, node, m, sizeMb, bwMbPerS: ckptMb / (endS - startS) };
}

export function ingestCanonicalFields(fields: readonly string[], layout: CanonicalLayout, ledger: RowLedger, at: RowPosition): void {
  const { sourceIndex, line, byteStart, byteEnd } = at;
  const verdict = classifyCanonicalFields(fields, layout);
  if (!verdict.valid) {
    const key = verdict.runId === undefined ? -1 : ledger.runKeyOfText(verdict.runId);
    ledger.reject(sourceIndex, line, byteStart, byteEnd, null, verdict.code, verdict.reason, key);
    return;
  }
  const run = ledger.addProcess(
    ledger.runKeyOfText(verdict.runId),
    ledger.nodeKeyOfText(verdict.node),
    verdict.m,
    verdict.sizeMb,
    verdict.bwMbPerS,
    sourceIndex,
    line,
    byteStart,
    byteEnd,
    null,
  );
  if (run < 0) return;
  for (let j = 0; j < layout.extraIndices.length; j++) ledger.noteAttribute(run, j, ledger.attributeKeyOfText(j, fields[layout.extraIndices[j]!]!));
}
