/**
 * ks_bw ([Y-thesis] Annex A, after Sahni's approximation scheme for 0/1 knapsack; docs/science.md
 * §4.3): which of the candidates I − CKPT to start now.
 *
 * For every subset J of the candidates with |J| ≤ k0 whose union with the checkpoints in
 * progress meets the time constraint `estimate(J ∪ CKPT) ≤ T − t`, complete J with the
 * greedy L: scan the other candidates in criterion order and add each one for which
 * `Select ∪ {i}` still meets the constraint — scanning on after a rejection. The value of
 * J is Σ p over J and what L added; the best J ∪ L is started. CKPT always stays (running
 * checkpoints are never interrupted) and counts in every constraint with its remaining
 * sizes; its own p is not part of the value (it is the same for every J).
 *
 * Decisions, after the sources:
 * - Enumeration: |J| ≤ k0 (Sahni's scheme, docs/science.md §4.3) by default; `exactly-k0` is the
 *   literal reading of Annex A ("subsets of size k0"), with min(k0, r) when fewer than k0
 *   candidates are left. Only `up-to-k0` guarantees that a larger k0 never does worse.
 * - Ties keep the first found: J by increasing size (∅ first), lexicographic in criterion
 *   order within a size; a later J replaces the best only with a strictly larger value.
 * - A J that misses the constraint is skipped (not completed). If none meets it (e.g. CKPT
 *   alone no longer fits after a wrong prediction), nothing is started.
 * - Pruning (on by default, `prune: false` turns it off): a J, or the rest of its greedy
 *   scan, is abandoned once even taking every remaining candidate could not beat the best
 *   value strictly. Since the best only changes on a strict improvement, this never
 *   changes the result, only the number of estimates (a property test checks it).
 *
 * Complexity: Σ_{j ≤ k0} C(r, j) subsets, each completed by ≤ r estimates:
 * O(r^(k0+1)) estimates (docs/science.md §4.3: O(k0 · r^(k0+1))), each O(1) (static) or O(m) (fluid),
 * r = |I − CKPT|. No allocation: everything lives in a `KsBwWorkspace` made once per run.
 */
import type { BandwidthOracle } from "./bandwidth-oracle";
import { copySizeSet, createSizeSet, insertSize, type SizeSet } from "./size-set";
import type { TimeEstimator } from "./time-estimator";

export const SUBSET_ENUMERATIONS = ["up-to-k0", "exactly-k0"] as const;
export type SubsetEnumeration = (typeof SUBSET_ENUMERATIONS)[number];

export interface KsBwOptions {
  /** Enumeration depth k0 ≥ 0. */
  k0: number;
  enumeration: SubsetEnumeration;
  /** Abandon subsets that cannot strictly beat the best (result unchanged). */
  prune: boolean;
}

/** Preallocated buffers of ks_bw, reused across decisions. */
export interface KsBwWorkspace {
  readonly capacity: number;
  readonly combination: Int32Array;
  readonly inSubset: Uint8Array;
  readonly chosen: Int32Array;
  /** Positions (into the candidate window, ascending) of the best selection. */
  readonly selected: Int32Array;
  selectedCount: number;
  /** CKPT ∪ J, then ∪ L as the greedy accepts. */
  readonly selection: SizeSet;
}

/** `capacity`: the number of applications of the run (bounds r and |CKPT|). */
export function createKsBwWorkspace(capacity: number): KsBwWorkspace {
  return {
    capacity,
    combination: new Int32Array(capacity + 1),
    inSubset: new Uint8Array(capacity),
    chosen: new Int32Array(capacity),
    selected: new Int32Array(capacity),
    selectedCount: 0,
    selection: createSizeSet(capacity),
  };
}

/**
 * One ks_bw decision over the candidates `candidates[from .. from + r)` (criterion order).
 * Returns the best value (Σ p of the applications to start), or −Infinity when no subset
 * meets the constraint; the applications to start are
 * `candidates[from + workspace.selected[k]]` for k < `workspace.selectedCount`.
 */
// Parenthesised so that V8 compiles it with the module, not on the first decision (see schedule-ckpt.ts, "Cold start").
export const ksBw = (function ksBw(
  candidates: Int32Array,
  from: number,
  r: number,
  sizesMb: Float64Array,
  pS: Float64Array,
  running: SizeSet,
  budgetS: number,
  options: KsBwOptions,
  estimator: TimeEstimator,
  bandwidth: BandwidthOracle,
  workspace: KsBwWorkspace,
): number {
  const { combination, inSubset, chosen, selected, selection } = workspace;
  const prune = options.prune;
  let totalP = 0;
  for (let k = 0; k < r; k++) totalP += pS[candidates[from + k]!]!;
  const largest = Math.min(options.k0, r);
  const smallest = options.enumeration === "exactly-k0" ? largest : 0;
  let best = -Infinity;
  workspace.selectedCount = 0;

  for (let size = smallest; size <= largest; size++) {
    for (let k = 0; k < size; k++) combination[k] = k;
    for (;;) {
      // --- evaluate J = combination[0 .. size). J ∪ L ⊆ the candidates, so its value is at
      // most totalP: once the best reaches it no J can improve (checked before any estimate).
      if (prune && totalP <= best) break;
      copySizeSet(running, selection);
      let subsetP = 0;
      for (let k = 0; k < size; k++) {
        const position = combination[k]!;
        const app = candidates[from + position]!;
        inSubset[position] = 1;
        insertSize(selection, sizesMb[app]!);
        subsetP += pS[app]!;
      }
      let rest = totalP - subsetP;
      const subsetFits =
        selection.count === 0 ? budgetS >= 0 : estimator.finishTimeS(selection, 0, budgetS, bandwidth) <= budgetS;
      if (subsetFits) {
        // The greedy L grows the same set: Select starts as CKPT ∪ J.
        let value = subsetP;
        let chosenCount = 0;
        for (let position = 0; position < r; position++) {
          if (inSubset[position] === 1) continue;
          const app = candidates[from + position]!;
          const p = pS[app]!;
          rest -= p;
          if (prune && value + p + rest <= best) break;
          const sizeMb = sizesMb[app]!;
          if (estimator.finishTimeS(selection, sizeMb, budgetS, bandwidth) <= budgetS) {
            insertSize(selection, sizeMb);
            value += p;
            chosen[chosenCount++] = position;
          }
        }
        if (value > best) {
          best = value;
          // Merge J and L (both ascending) into the selection.
          let a = 0;
          let b = 0;
          let out = 0;
          while (a < size || b < chosenCount) {
            // Stryker disable next-line EqualityOperator: J and L are disjoint positions, never equal.
            if (b >= chosenCount || (a < size && combination[a]! < chosen[b]!)) selected[out++] = combination[a++]!;
            else selected[out++] = chosen[b++]!;
          }
          workspace.selectedCount = out;
        }
      }
      for (let k = 0; k < size; k++) inSubset[combination[k]!] = 0;
      // --- next combination of this size, lexicographically
      let k = size - 1;
      while (k >= 0 && combination[k] === r - size + k) k--;
      if (k < 0) break;
      combination[k]!++;
      for (let j = k + 1; j < size; j++) combination[j] = combination[j - 1]! + 1;
    }
  }
  return best;
});

/** How many time estimates one ks_bw call may make on r candidates: its subsets × (r + 1). */
export function ksBwWorkBound(r: number, k0: number, enumeration: SubsetEnumeration): number {
  const binomial = (j: number) => {
    let c = 1;
    for (let i = 1; i <= j; i++) c = (c * (r - j + i)) / i;
    return c;
  };
  let subsets = 0;
  if (enumeration === "exactly-k0") subsets = binomial(Math.min(k0, r));
  else for (let j = 0; j <= Math.min(k0, r); j++) subsets += binomial(j);
  return subsets * (r + 1);
}
