/**
 * A checkpoint server whose aggregated bandwidth is a measured model bw(m, V), as a fluid
 * (docs/science.md §6.6): the m transfers in progress share bw(m, V) MB/s, V their total size
 * in GB (or their remaining size, `volume`), the rates held between changes and recomputed
 * whenever a transfer starts or ends — ScheduleCkpt's fluid progression (§4.2,
 * schedule/fluid-device.ts), here for transfers that come and go. Engine-agnostic: the model
 * asks for the next completion after each event and schedules one event for it.
 *
 * Sharing: max-min fairness (water-filling) under each transfer's own link, the one sharing
 * model of bandwidth/fair-shares.ts. With no link binding every transfer gets bw/m — the
 * equal shares [Y-thesis] ch. 4 observed (§3.1); a transfer its link holds below bw/m gets
 * its link, and what it leaves goes to the others in equal parts. Why not "equal shares, capped" (each min(link, bw/m), the rest unused): bw(m, V)
 * is what the server delivered to m writers, so capacity one slow writer cannot take is
 * capacity the others can — which is how TCP flows share a bottleneck, and how the [BKT]
 * simulator already shares its server link (a model of constant bandwidth B gives its
 * `server.mbps = 8·B` behaviour).
 *
 * Reported: transfers that left the fitted domain (each counted once: in progress when the
 * model was evaluated outside it), the server's busy time, the share of its capacity used
 * while busy (∫ Σ rates dt / ∫ bw dt), and the time transfers spent waiting for it:
 * ∫ Σ (1 − rate_i / link_i) dt, i.e. for a completed transfer its duration minus size / its
 * own link.
 *
 * Cost: O(m) per recomputation (m ≤ the transfers in progress), nothing allocated after
 * creation.
 */
import { compareByLink, isFinished, maxMinFairRates, timeToFinishS } from "../../bandwidth/fair-shares";
import { clampCount, clampVolumeGb } from "../../bandwidth/outside-domain";
import { bandwidthEvaluator, inModelDomain } from "../../fit/model";
import { InputError } from "../../shared/errors";
import type { MeasuredServer } from "./measured-server";

export interface FluidServerStats {
  /** Transfers started, completed, and stopped before completing (a failure, a cancelled write). */
  transfers: number;
  completed: number;
  interrupted: number;
  /** Transfers in progress while the model was evaluated outside its fitted domain (each once). */
  transfersOutsideDomain: number;
  /** Recomputations, and those at a load outside the domain. */
  evaluations: number;
  evaluationsOutsideDomain: number;
  /** Time with at least one transfer in progress, s. */
  busyS: number;
  /** ∫ Σ rates dt and ∫ bw(m, V) dt over the busy time, MB. */
  deliveredMb: number;
  capacityMb: number;
  /** ∫ Σ (1 − rate_i / link_i) dt: time transfers spent slowed down by the server, s. */
  waitS: number;
  maxConcurrent: number;
}

export interface FluidServer {
  /** Start a transfer of `sizeMb` for entity `id` (≥ 0, < capacity), capped by its own link. */
  start(id: number, sizeMb: number, linkMbPerS: number, nowS: number): void;
  /** Stop `id`'s transfer before it completes (false when it had none). */
  stop(id: number, nowS: number): boolean;
  /** Is `id` transferring? */
  has(id: number): boolean;
  /** The set changed since the last `nextCompletionS`: the caller must reschedule. */
  readonly changed: boolean;
  /** When the next transfer completes, rates recomputed first if the set changed (Infinity when idle). */
  nextCompletionS(nowS: number): number;
  /** Remove the transfers complete at `nowS` and return their ids, ascending (a view, valid until the next call). */
  takeCompleted(nowS: number): Int32Array;
  /** Close the accounting at the end of the run (transfers still in progress are neither completed nor interrupted). */
  settle(nowS: number): void;
  readonly stats: FluidServerStats;
}

/** `capacity`: entity ids are in [0, capacity). */
export function createFluidServer(server: MeasuredServer, capacity: number): FluidServer {
  const bw = bandwidthEvaluator(server.model);
  const domain = server.model.domain;
  const remainingVolume = server.volume === "remaining";
  const sizeMb = new Float64Array(capacity);
  const remainingMb = new Float64Array(capacity);
  const linkMbPerS = new Float64Array(capacity);
  const rate = new Float64Array(capacity);
  const leftDomain = new Uint8Array(capacity);
  const position = new Int32Array(capacity).fill(-1);
  // The transfers in progress, by increasing link then id (the water-filling order).
  const active = new Int32Array(capacity);
  const byLink = compareByLink(linkMbPerS);
  const done = new Int32Array(capacity);
  let count = 0;
  let since = 0;
  let aggregateMbPerS = 0;
  let dirty = false;
  let nextS = Infinity;
  let nextId = -1;
  const stats: FluidServerStats = {
    transfers: 0,
    completed: 0,
    interrupted: 0,
    transfersOutsideDomain: 0,
    evaluations: 0,
    evaluationsOutsideDomain: 0,
    busyS: 0,
    deliveredMb: 0,
    capacityMb: 0,
    waitS: 0,
    maxConcurrent: 0,
  };

  /** Move every transfer forward to `nowS` at its current rate, and integrate the statistics. */
  function settle(nowS: number): void {
    // A set changed and left untouched since (no one asked for the next completion) gets its rates first.
    if (dirty && nowS > since && count > 0) recompute(since);
    const dt = nowS - since;
    since = nowS;
    if (!(dt > 0) || count === 0) return;
    let delivered = 0;
    let slowed = 0;
    for (let k = 0; k < count; k++) {
      const id = active[k]!;
      remainingMb[id] = remainingMb[id]! - rate[id]! * dt;
      delivered += rate[id]!;
      slowed += 1 - rate[id]! / linkMbPerS[id]!;
    }
    stats.busyS += dt;
    stats.deliveredMb += delivered * dt;
    stats.capacityMb += aggregateMbPerS * dt;
    stats.waitS += slowed * dt;
  }

  function remove(id: number): void {
    const at = position[id]!;
    active.copyWithin(at, at + 1, count);
    count--;
    for (let k = at; k < count; k++) position[active[k]!] = k;
    position[id] = -1;
    if (leftDomain[id] === 1) stats.transfersOutsideDomain++;
    dirty = true;
  }

  /** The rates for the current set: bw(m, V) under the domain policy, water-filled under the links. */
  function recompute(nowS: number): void {
    dirty = false;
    nextS = Infinity;
    nextId = -1;
    aggregateMbPerS = 0;
    if (count === 0) return;
    let volumeMb = 0;
    let linkSum = 0;
    for (let k = 0; k < count; k++) {
      const id = active[k]!;
      volumeMb += remainingVolume ? remainingMb[id]! : sizeMb[id]!;
      linkSum += linkMbPerS[id]!;
    }
    const m = count;
    const vGb = volumeMb / 1000;
    let mUsed = m;
    let vUsed = vGb;
    stats.evaluations++;
    if (!inModelDomain(server.model, m, vGb)) {
      stats.evaluationsOutsideDomain++;
      for (let k = 0; k < count; k++) leftDomain[active[k]!] = 1;
      if (server.outsideDomain === "refuse") {
        throw new InputError(
          `${describeLoad(m, vGb, nowS)} is outside the fitted domain of the server model ${modelName(server)} (${domainText(server)}) and the scenario says outsideDomain: "refuse"; ` +
            `give "clamp" (the bandwidth at the domain's nearest edge) or "extrapolate", or a model fitted on more concurrent transfers and larger sizes`,
        );
      }
      if (server.outsideDomain === "clamp") {
        mUsed = clampCount(domain, m);
        vUsed = clampVolumeGb(domain, vGb);
      }
    }
    const aggregate = bw(mUsed, vUsed);
    if (!(aggregate > 0) || !Number.isFinite(aggregate)) {
      const where = mUsed !== m || vUsed !== vGb ? ` (clamped to m = ${mUsed}, V = ${round(vUsed)} GB)` : "";
      throw new InputError(
        `the server model ${modelName(server)} gives bw = ${round(aggregate)} MB/s for ${describeLoad(m, vGb, nowS)}${where}: no usable bandwidth (docs/science.md §3.2: a value ≤ 0 is not a bandwidth). ` +
          `This model cannot price that load; use a model that covers it, fewer connections, or smaller checkpoints`,
      );
    }
    aggregateMbPerS = aggregate;
    // No link binds: each transfer has its link (what the water-filling gives, without its divisions).
    if (linkSum <= aggregate) {
      for (let k = 0; k < count; k++) rate[active[k]!] = linkMbPerS[active[k]!]!;
    } else maxMinFairRates(active, count, linkMbPerS, aggregate, rate);
    let soonest = Infinity;
    for (let k = 0; k < count; k++) {
      const id = active[k]!;
      const t = timeToFinishS(remainingMb[id]!, rate[id]!);
      if (t < soonest || (t === soonest && id < nextId)) {
        soonest = t;
        nextId = id;
      }
    }
    nextS = nowS + soonest;
  }

  return {
    stats,
    get changed() {
      return dirty;
    },
    has: (id) => position[id]! >= 0,
    start(id, size, link, nowS) {
      if (position[id]! >= 0) throw new Error(`entity ${id} already has a transfer in progress`);
      if (!(link > 0)) throw new InputError(`a transfer needs a link faster than 0 MB/s, got ${link} for entity ${id}`);
      settle(nowS);
      sizeMb[id] = size;
      remainingMb[id] = size;
      linkMbPerS[id] = link;
      leftDomain[id] = 0;
      let at = count;
      while (at > 0 && byLink(active[at - 1]!, id) > 0) at--;
      active.copyWithin(at + 1, at, count);
      active[at] = id;
      count++;
      for (let k = at; k < count; k++) position[active[k]!] = k;
      stats.transfers++;
      if (count > stats.maxConcurrent) stats.maxConcurrent = count;
      dirty = true;
    },
    stop(id, nowS) {
      if (position[id]! < 0) return false;
      settle(nowS);
      remove(id);
      stats.interrupted++;
      return true;
    },
    nextCompletionS(nowS) {
      if (dirty) {
        settle(nowS);
        recompute(nowS);
      }
      return nextS;
    },
    takeCompleted(nowS) {
      settle(nowS);
      let n = 0;
      for (let k = 0; k < count; k++) {
        const id = active[k]!;
        // The transfer the event was set for completes even if float noise leaves a few bytes.
        if (isFinished(remainingMb[id]!, sizeMb[id]!) || (id === nextId && nowS >= nextS)) done[n++] = id;
      }
      done.subarray(0, n).sort();
      for (let i = 0; i < n; i++) {
        remove(done[i]!);
        stats.completed++;
      }
      return done.subarray(0, n);
    },
    settle(nowS) {
      settle(nowS);
      for (let k = 0; k < count; k++) if (leftDomain[active[k]!] === 1) stats.transfersOutsideDomain++;
      for (let k = 0; k < count; k++) leftDomain[active[k]!] = 0;
    },
  };
}

const round = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(4)) : x);

function describeLoad(m: number, vGb: number, nowS: number): string {
  return `${m} concurrent transfer(s) of ${round(vGb)} GB at t = ${round(nowS)} s`;
}

function modelName(server: MeasuredServer): string {
  return `"${server.model.name}" (${server.file}, sha256 ${server.sha256.slice(0, 12)}…)`;
}

function domainText(server: MeasuredServer): string {
  const d = server.model.domain;
  return `m ∈ [${d.mMin}, ${d.mMax}], V ∈ [${d.vGbMin}, ${d.vGbMax}] GB`;
}
