/**
 * The [BKT] checkpoint server's connections and transfers (docs/science.md §6.1): a fixed
 * number of connections, handed out first come first served (a client waits, computing
 * nothing, until one is free), and the transfers in progress sharing the server's bandwidth
 * by bandwidth/fair-shares.ts's one sharing model.
 *
 * Two servers:
 * - the link server (`server.mbps`): a transfer takes size / link + latency at its client's
 *   link rate; when the server's link would be exceeded it is shared max-min fairly and
 *   every transfer's end is recomputed (latency is then not added: the preset's 100
 *   connections of ≤ 2 Mbit/s never bind a 1 Gbit/s server, and its latency is 0). One
 *   event per transfer.
 * - a measured server (`server.model`, §6.6): the transfers in progress share the model's
 *   bw(m, V), each capped by its client's link (server/fluid-server.ts; sizes in MB =
 *   Mbit / 8); latency is not added: the model's bandwidth is size over the measured
 *   end-to-end time. One event for the next completion, set again after every event that
 *   changed the transfers.
 *
 * The clients' side (phases, what a finished transfer means) is bkt-run.ts's; this module
 * only tells it when a queued transfer starts (`onStart`) and which transfers ended.
 */
import { compareByLink, maxMinFairRates, timeToFinishS } from "../../bandwidth/fair-shares";
import type { Simulation } from "../engine/simulation";
import { createFluidServer, type FluidServerStats } from "../server/fluid-server";
import type { MeasuredServer } from "../server/measured-server";

export interface BktServer {
  /** Client c asks for a connection to move `sizeMbit`: started now when one is free (then `onStart(c)`), else queued. */
  request(c: number, sizeMbit: number): void;
  /** Client c's connection is freed (its transfer ended or was interrupted); the next waiting clients start. */
  release(c: number): void;
  /** Client c gives up its place in the queue (a failure while waiting). */
  leaveQueue(c: number): void;
  /** Cancel the pending end of c's transfer (link server; the measured server's transfer is stopped by `release`). */
  cancelTransferEnd(c: number): void;
  /** A transfer event fired for `entity`: `ended(c)` for every client whose transfer completed, in client order. */
  transferEnded(entity: number, ended: (c: number) => void): void;
  /** After every event: set the measured server's next completion again when its transfers changed. */
  afterEvent(): void;
  /** Close the measured server's accounting at the end of the run. */
  settle(endS: number): void;
  /** What the measured server did; null for the link server. */
  readonly stats: FluidServerStats | null;
}

export interface BktServerInputs {
  sim: Simulation;
  /** The event kind of a transfer end. */
  transferKind: number;
  clients: number;
  connections: number;
  /** The link server's bandwidth, Mbit/s (Infinity with a measured server). */
  serverMbps: number;
  latencySeconds: number;
  /** Each client's link, Mbit/s. */
  linkMbps: Float64Array;
  /** A measured server, or null for the link server. */
  measured: MeasuredServer | null;
  /** A client's transfer starts (at its request, or when a connection frees up). */
  onStart: (c: number) => void;
}

export function createBktServer(inputs: BktServerInputs): BktServer {
  const { sim, transferKind: TRANSFER, clients, connections: capacity, serverMbps, latencySeconds: latency, linkMbps, onStart } = inputs;
  const fluid = inputs.measured ? createFluidServer(inputs.measured, clients) : null;
  let fluidEvent = -1;
  // Measured server: who holds a connection. A client whose lifetime ends while it is down in
  // the middle of a transfer is released twice (at the failure, then at its end); the link
  // server's accounting releases its connection twice (the kept results were computed so),
  // which this guard prevents here.
  const holding = new Uint8Array(fluid !== null ? clients : 0);
  let active = 0; // connections in use
  const waiting: number[] = []; // clients waiting for a connection, FIFO (lazy removal)
  let waitingHead = 0;
  const queued = new Uint8Array(clients);
  const sizeMbit = new Float64Array(clients);
  // Link server: the transfers in progress and their progress since their rate last changed.
  const transferEvent = new Float64Array(clients).fill(-1);
  const transferLeftMbit = new Float64Array(clients);
  const transferRate = new Float64Array(clients);
  const transferSince = new Float64Array(clients);
  const activeClients = new Set<number>();
  const byLink = compareByLink(linkMbps);
  let linkSum = 0;

  /** Every link transfer moved to now at its old rate, then the max-min fair rates and new ends. */
  function rescheduleTransfers(): void {
    for (const c of activeClients) transferLeftMbit[c] = transferLeftMbit[c]! - transferRate[c]! * (sim.now - transferSince[c]!);
    const sorted = [...activeClients].sort(byLink);
    maxMinFairRates(sorted, sorted.length, linkMbps, serverMbps, transferRate);
    for (const c of sorted) {
      transferSince[c] = sim.now;
      if (transferEvent[c]! >= 0) sim.cancel(transferEvent[c]!);
      transferEvent[c] = sim.at(sim.now + timeToFinishS(transferLeftMbit[c]!, transferRate[c]!), TRANSFER, c);
    }
  }

  function start(c: number): void {
    active++;
    if (fluid !== null) {
      holding[c] = 1;
      onStart(c);
      fluid.start(c, sizeMbit[c]! / 8, linkMbps[c]! / 8, sim.now);
      return;
    }
    const sharing = linkSum + linkMbps[c]! > serverMbps || linkSum > serverMbps;
    linkSum += linkMbps[c]!;
    activeClients.add(c);
    transferLeftMbit[c] = sizeMbit[c]!;
    transferRate[c] = linkMbps[c]!;
    transferSince[c] = sim.now;
    onStart(c);
    if (sharing) rescheduleTransfers();
    else transferEvent[c] = sim.at(sim.now + latency + sizeMbit[c]! / linkMbps[c]!, TRANSFER, c);
  }

  return {
    stats: fluid?.stats ?? null,
    request(c, size) {
      sizeMbit[c] = size;
      if (active < capacity) start(c);
      else {
        queued[c] = 1;
        waiting.push(c);
      }
    },
    release(c) {
      if (fluid !== null) {
        if (holding[c] === 0) return;
        holding[c] = 0;
        fluid.stop(c, sim.now);
      }
      active--;
      if (fluid === null) {
        activeClients.delete(c);
        const wasSharing = linkSum > serverMbps;
        linkSum -= linkMbps[c]!;
        if (wasSharing) rescheduleTransfers();
      }
      while (active < capacity && waitingHead < waiting.length) {
        const next = waiting[waitingHead++]!;
        if (queued[next] === 0) continue;
        queued[next] = 0;
        start(next);
      }
      if (waitingHead > 4096 && waitingHead * 2 > waiting.length) {
        waiting.splice(0, waitingHead);
        waitingHead = 0;
      }
    },
    leaveQueue(c) {
      queued[c] = 0;
    },
    cancelTransferEnd(c) {
      if (transferEvent[c]! >= 0) {
        sim.cancel(transferEvent[c]!);
        transferEvent[c] = -1;
      }
    },
    transferEnded(entity, ended) {
      if (fluid === null) {
        transferEvent[entity] = -1;
        ended(entity);
        return;
      }
      fluidEvent = -1;
      for (const c of fluid.takeCompleted(sim.now)) ended(c);
    },
    afterEvent() {
      if (fluid === null || !fluid.changed) return;
      if (fluidEvent >= 0) sim.cancel(fluidEvent);
      const next = fluid.nextCompletionS(sim.now);
      fluidEvent = next < Infinity ? sim.at(next, TRANSFER, 0) : -1;
    },
    settle(endS) {
      fluid?.settle(endS);
    },
  };
}
