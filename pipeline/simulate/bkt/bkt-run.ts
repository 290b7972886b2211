/**
 * One run of the [BKT] desktop grid (docs/science.md §6.1) under one checkpoint policy: a
 * BOINC-like server handing out a bag of jobs to volatile clients, checkpoints uploaded to
 * the server, until every job has a result.
 *
 * Model, as docs/science.md §6.1 settles it:
 * - Clients alternate availability and unavailability intervals (two laws from a per-client
 *   stream, or an availability trace) until their lifetime ends. At t = 0 every client is
 *   available (`startState = "fresh"`) or in the alternating process's equilibrium
 *   ("stationary", reached by running it from 100 mean cycles, and at least 2000 h, before 0).
 * - A client pulls one job per request (§6.1.3): a job never handed out, chosen uniformly;
 *   else a duplicate of any uncompleted job, chosen uniformly, starting from the most
 *   recent checkpoint the server holds (downloaded first when `downloadOnRestart`); else
 *   "halt". It requests at t = 0, after each result upload, and — in `abort` mode — when it
 *   comes back after a failure.
 * - A copy computes its slices in order; after a slice its policy marks, it uploads the
 *   image (waiting FIFO for one of the server's connections; computing nothing meanwhile),
 *   and the server keeps a checkpoint only if it is newer than the one it has (older ones are
 *   "outdated", discarded after the transfer). The upload after the last slice is the
 *   result: the first one completes the job, later ones are discarded. Copies of completed
 *   jobs run on (`staleCopies = "run-on"`) or stop at their next upload ("abort-on-contact").
 * - A transient unavailability suspends the copy, which resumes on return (a transfer
 *   restarts from zero) — `transient = "suspend"`, the project's calibration — or kills it
 *   (`"abort"`, the literal reading: the work since its last accepted checkpoint is lost and
 *   the client requests a new job on return). The end of the lifetime always kills the copy.
 * - Transfers take size / link + latency at the client's link rate, the server's link or a
 *   measured server's bw(m, V) shared max-min fairly when it binds (bkt-server.ts).
 * - Every policy, built-in or a user's module, plans a copy through the same interface
 *   (checkpoint-policy.ts): its remaining slices' durations and checkpoint costs on this host,
 *   the planned download, the availability law; it returns the slices to checkpoint after.
 *
 * Accounting (docs/science.md §6.1.6): every client-second is in exactly one bucket —
 * computing, uploading, downloading, waiting for a connection, idle, unavailable, departed —
 * so that buckets sum to clients × the run's length. Checkpoint overhead = uploads (of
 * checkpoints and results) + downloads + connection waits; lost computation = compute time
 * lost at failures since the copy's last accepted checkpoint; compute spent on jobs already
 * completed is `duplicateWork`, outside the paper's two bars.
 *
 * The parts: this file is the clients' state machine and the run; the bag of jobs is
 * bkt-job-bag.ts, the server's connections and transfers bkt-server.ts.
 */
import type { FailureLaw } from "../../place/laws/failure-law";
import { InputError } from "../../shared/errors";
import { createSimulation } from "../engine/simulation";
import type { RandomStreams } from "../engine/random-streams";
import type { Random } from "../../shared/random";
import type { FluidServerStats } from "../server/fluid-server";
import type { MeasuredServer } from "../server/measured-server";
import { availableAt, availableSince, nextChangeAfter, type AvailabilityTrace } from "../traces/availability-trace";
import { createJobBag } from "./bkt-job-bag";
import type { BktPlatform } from "./bkt-platform";
import { createPlanner } from "./bkt-policies";
import { createBktServer } from "./bkt-server";
import { lawDependsOnCopy, policyLawForCopy } from "./bkt-policy-law";
import { bktLaw, type BktPolicy, type BktScenario } from "./bkt-scenario";
import { builtInPolicy, planFlags, policyLaw as asPolicyLaw, type CheckpointPolicy, type CheckpointPolicyInput } from "./checkpoint-policy";

/** Client-seconds per bucket. */
export interface TimeBuckets {
  computeS: number;
  uploadS: number;
  downloadS: number;
  waitS: number;
  idleS: number;
  unavailableS: number;
  departedS: number;
}

export interface BktRunResult {
  /** A built-in policy, or the name a user's module gives its policy. */
  policy: string;
  /** When the last job's first result arrived, s; null when the horizon stopped the run first. */
  makespanS: number | null;
  endS: number;
  unfinishedJobs: number;
  completedJobs: number;
  /** Checkpoint overhead = uploads + downloads + connection waits, client-seconds. */
  checkpointOverheadS: number;
  lostComputationS: number;
  connectionWaitS: number;
  downloadS: number;
  duplicateWorkS: number;
  checkpointsTaken: number;
  /**
   * Slice boundaries copies reached with slices still to run (the points where a checkpoint
   * may be taken), and at how many of them the copy's plan said to checkpoint: their ratio is
   * the share of boundaries a policy checkpoints.
   */
  sliceBoundaries: number;
  checkpointDecisions: number;
  checkpointsAccepted: number;
  checkpointsOutdated: number;
  resultsSent: number;
  resultsDiscarded: number;
  copies: number;
  jobsFinishedByDuplicate: number;
  uploadedMbit: number;
  downloadedMbit: number;
  failuresTransient: number;
  failuresPermanent: number;
  events: number;
  dpCalls: number;
  dpCacheHits: number;
  buckets: TimeBuckets;
  /** With a measured server only: what the server did (server/fluid-server.ts). */
  server?: FluidServerStats;
}

export interface BktRunInputs {
  scenario: BktScenario;
  platform: BktPlatform;
  streams: RandomStreams;
  /** A built-in policy by name, or any policy through the interface (a user's module). */
  policy: BktPolicy | CheckpointPolicy;
  /** What names a module's policy in messages ("policy module my.mjs ("mine")"); default the policy's name. */
  policyLabel?: string;
  /** A measured server (the scenario's `server.model`, loaded); null or absent: the link server. */
  server?: MeasuredServer | null;
  /** Availability from a trace instead of the laws: the trace node of each client, and the trace instant that is t = 0 (epoch s). */
  trace: { trace: AvailabilityTrace; nodeOfClient: Int32Array; originS: number } | null;
  /**
   * The availability law the policies plan with (docs/science.md §6.1.4: the scenario's, or a
   * trace's available intervals), which `failureLawForPolicy` may age or combine with the
   * lifetime law copy by copy (bkt-policy-law.ts).
   */
  policyLaw: FailureLaw;
  /** Told every 100 000 events: jobs completed, simulated time (s), events so far. */
  progress?: (completedJobs: number, timeS: number, events: number) => void;
  /** Told of every availability change (tests check that policies see the same hosts). */
  onAvailability?: (client: number, timeS: number, up: boolean) => void;
}

// Client phases.
const IDLE = 0;
const DOWNLOAD_WAIT = 1;
const DOWNLOAD = 2;
const COMPUTE = 3;
const UPLOAD_WAIT = 4;
const UPLOAD = 5;
const HALTED = 6;
const DEAD = 7;

const KINDS = ["lifetime end", "availability change", "transfer end", "compute end", "request"] as const;

/**
 * A host's state at t = 0 in the equilibrium of its alternating availability process
 * (`startState = "stationary"`), when it entered that state (≤ 0) and when it next changes: the process run from at least 100
 * mean cycles before 0 (and at least 2000 h: 235 cycles of the preset), which its state at 0
 * has forgotten — P(up) is then mean up / (mean up + mean down) whatever the laws.
 */
export function stationaryStart(upLaw: FailureLaw, downLaw: FailureLaw, random: Random): { up: boolean; nextChangeS: number; sinceS: number } {
  let t = -Math.max(2000 * 3600, 100 * (upLaw.meanSeconds + downLaw.meanSeconds));
  let up = true;
  for (;;) {
    const next = t + (up ? upLaw : downLaw).sample(random);
    if (next > 0) return { up, nextChangeS: next, sinceS: t };
    t = next;
    up = !up;
  }
}

export function runBkt(inputs: BktRunInputs): BktRunResult {
  const { scenario, platform, streams } = inputs;
  const clients = scenario.clients;
  const jobs = scenario.jobs;
  const sim = createSimulation({ kinds: KINDS, maxEntities: Math.max(clients, 1), capacity: 4 * clients });
  const [LIFETIME, AVAILABILITY, TRANSFER, COMPUTE_END, REQUEST] = KINDS.map((k) => sim.kind(k)) as [number, number, number, number, number];
  const planner = createPlanner(scenario, inputs.policyLaw);
  const policy = typeof inputs.policy === "string" ? builtInPolicy(inputs.policy, planner) : inputs.policy;
  const who = inputs.policyLabel ?? `policy "${policy.name}"`;
  const law = asPolicyLaw(inputs.policyLaw);
  const latency = scenario.latencySeconds;
  const suspend = scenario.transient === "suspend";

  // Availability laws (unused with a trace).
  const upLaw = bktLaw(scenario.availability, "availability");
  const downLaw = bktLaw(scenario.unavailability, "unavailability");
  // The copies' own failure laws (failureLawForPolicy), from the hosts' ages.
  const lawPerCopy = lawDependsOnCopy(scenario.failureLawForPolicy);
  const lifetimeLaw = lawPerCopy && scenario.lifetime !== "none" ? bktLaw(scenario.lifetime, "lifetime") : null;

  const bag = createJobBag(jobs, streams.stream("server"));
  const server = createBktServer({
    sim,
    transferKind: TRANSFER,
    clients,
    connections: scenario.server.connections,
    serverMbps: "mbps" in scenario.server ? scenario.server.mbps : Infinity,
    latencySeconds: latency,
    linkMbps: platform.linkMbps,
    measured: inputs.server ?? null,
    onStart: (c) => setPhase(c, phase[c] === DOWNLOAD_WAIT ? DOWNLOAD : UPLOAD),
  });

  // Client state.
  const up = new Uint8Array(clients);
  const upSince = new Float64Array(clients); // when the current availability interval began (≤ 0 for one begun before t = 0)
  const alive = new Uint8Array(clients).fill(1);
  let aliveCount = clients;
  const phase = new Uint8Array(clients);
  const bucketSince = new Float64Array(clients);
  const computeEvent = new Float64Array(clients).fill(-1); // the pending end of the slice being computed
  const availabilityEvent = new Float64Array(clients).fill(-1);
  const copyJob = new Int32Array(clients).fill(-1);
  const copyFirstSlice = new Int32Array(clients); // first slice index (global) of the copy's job
  const copyFrom = new Int32Array(clients); // k0: slices done before the copy started
  const copySlice = new Int32Array(clients); // slice being computed or uploaded (1-based within the job)
  const copyPlan: (Uint8Array | null)[] = new Array(clients).fill(null);
  const copyFirstCopy = new Uint8Array(clients);
  const unsavedCompute = new Float64Array(clients); // compute since the copy's last accepted checkpoint
  const sliceStartedAt = new Float64Array(clients);
  const remainingSliceS = new Float64Array(clients).fill(-1); // suspended computation left, or −1
  const transferMbit = new Float64Array(clients); // size of the current transfer

  const buckets: TimeBuckets = { computeS: 0, uploadS: 0, downloadS: 0, waitS: 0, idleS: 0, unavailableS: 0, departedS: 0 };
  const result = {
    completedJobs: 0,
    lostComputationS: 0,
    duplicateWorkS: 0,
    checkpointsTaken: 0,
    sliceBoundaries: 0,
    checkpointDecisions: 0,
    checkpointsAccepted: 0,
    checkpointsOutdated: 0,
    resultsSent: 0,
    resultsDiscarded: 0,
    copies: 0,
    jobsFinishedByDuplicate: 0,
    uploadedMbit: 0,
    downloadedMbit: 0,
    failuresTransient: 0,
    failuresPermanent: 0,
    lastResultS: 0,
  };

  /** Close the client's current bucket at `now` (before any change of phase, availability or life). */
  function settle(c: number): void {
    const elapsed = sim.now - bucketSince[c]!;
    bucketSince[c] = sim.now;
    if (elapsed <= 0) return;
    if (alive[c] === 0) buckets.departedS += elapsed;
    else if (up[c] === 0) buckets.unavailableS += elapsed;
    else {
      const p = phase[c];
      if (p === COMPUTE) buckets.computeS += elapsed;
      else if (p === UPLOAD) buckets.uploadS += elapsed;
      else if (p === DOWNLOAD) buckets.downloadS += elapsed;
      else if (p === DOWNLOAD_WAIT || p === UPLOAD_WAIT) buckets.waitS += elapsed;
      else buckets.idleS += elapsed;
    }
  }

  function setPhase(c: number, next: number): void {
    settle(c);
    phase[c] = next;
  }

  // Availability: per-client alternating process from its own stream, or the trace.
  const availabilityStream = streams.family("availability");
  const traceInfo = inputs.trace;
  function nextAvailabilityChange(c: number, nowUp: boolean): number {
    if (traceInfo !== null) {
      const node = traceInfo.trace.nodes[traceInfo.nodeOfClient[c]!]!;
      return nextChangeAfter(node, traceInfo.originS + sim.now) - traceInfo.originS;
    }
    return sim.now + (nowUp ? upLaw : downLaw).sample(availabilityStream(c));
  }

  function requestConnection(c: number, kind: typeof DOWNLOAD_WAIT | typeof UPLOAD_WAIT): void {
    setPhase(c, kind);
    server.request(c, transferMbit[c]!);
  }

  /** Stop whatever the copy on c is doing right now (a failure): no event, no connection, no queue place. */
  function interrupt(c: number): void {
    if (computeEvent[c]! >= 0) {
      sim.cancel(computeEvent[c]!);
      computeEvent[c] = -1;
    }
    server.cancelTransferEnd(c);
    if (phase[c] === DOWNLOAD || phase[c] === UPLOAD) server.release(c);
    server.leaveQueue(c);
  }

  function startSlice(c: number, durationS: number): void {
    setPhase(c, COMPUTE);
    sliceStartedAt[c] = sim.now;
    computeEvent[c] = sim.at(sim.now + durationS, COMPUTE_END, c);
  }

  function sliceSeconds(c: number, k: number): number {
    return platform.workMi[copyFirstSlice[c]! + k - 1]! / platform.speedMips[c]!;
  }

  function image(c: number, k: number): number {
    return platform.imageMbit[copyFirstSlice[c]! + k - 1]!;
  }

  function handOut(c: number): void {
    const picked = bag.pick();
    if (picked === null) {
      setPhase(c, HALTED);
      return;
    }
    const { job, first } = picked;
    result.copies++;
    const from = bag.checkpointedSlice(job);
    const firstSlice = platform.sliceStart[job]!;
    const n = platform.sliceStart[job + 1]! - firstSlice;
    copyJob[c] = job;
    copyFirstSlice[c] = firstSlice;
    copyFrom[c] = from;
    copyFirstCopy[c] = first ? 1 : 0;
    unsavedCompute[c] = 0;
    remainingSliceS[c] = -1;
    const download = from > 0 && scenario.downloadOnRestart;
    const speed = platform.speedMips[c]!;
    const link = platform.linkMbps[c]!;
    const slices: number[] = new Array(n - from);
    const costs: number[] = new Array(n - from);
    for (let k = from + 1; k <= n; k++) {
      slices[k - from - 1] = platform.workMi[firstSlice + k - 1]! / speed;
      costs[k - from - 1] = platform.imageMbit[firstSlice + k - 1]! / link + latency;
    }
    const downloadSeconds = download ? platform.imageMbit[firstSlice + from - 1]! / link + latency : 0;
    const copyLaw = lawPerCopy
      ? policyLawForCopy(scenario.failureLawForPolicy, { availability: inputs.policyLaw, lifetime: lifetimeLaw, availabilityAgeS: sim.now - upSince[c]!, lifetimeAgeS: sim.now })
      : null;
    copyPlan[c] = planCopy({ sliceSeconds: slices, checkpointSeconds: costs, downloadSeconds, law: copyLaw === null ? law : asPolicyLaw(copyLaw) }, job, from);
    if (download) {
      copySlice[c] = from;
      transferMbit[c] = platform.imageMbit[firstSlice + from - 1]!;
      requestConnection(c, DOWNLOAD_WAIT);
    } else {
      copySlice[c] = from + 1;
      startSlice(c, sliceSeconds(c, from + 1));
    }
  }

  /** The policy's plan for a copy, as flags; what a policy throws or returns wrong stops the run, naming it. */
  function planCopy(input: CheckpointPolicyInput, job: number, from: number): Uint8Array {
    const copy = () => `a copy of job ${job} starting after slice ${from} at t = ${sim.now.toFixed(0)} s`;
    let plan: unknown;
    try {
      plan = policy.plan(input);
    } catch (error) {
      throw new InputError(`${who} ${(error as Error).message} — planning ${copy()}`, { cause: error });
    }
    return planFlags(plan, input.sliceSeconds.length, who, copy);
  }

  function dropCopy(c: number): void {
    copyJob[c] = -1;
    copyPlan[c] = null;
    remainingSliceS[c] = -1;
  }

  function complete(job: number, first: boolean): void {
    bag.complete(job);
    result.completedJobs++;
    result.lastResultS = sim.now;
    if (!first) result.jobsFinishedByDuplicate++;
  }

  function onComputeEnd(c: number): void {
    computeEvent[c] = -1;
    const job = copyJob[c]!;
    const k = copySlice[c]!;
    const spent = sim.now - sliceStartedAt[c]!;
    remainingSliceS[c] = -1;
    if (bag.isCompleted(job)) result.duplicateWorkS += spent;
    unsavedCompute[c] = unsavedCompute[c]! + spent;
    const n = platform.sliceStart[job + 1]! - copyFirstSlice[c]!;
    const checkpointHere = copyPlan[c]![k - copyFrom[c]! - 1] === 1;
    if (k < n) {
      result.sliceBoundaries++;
      if (checkpointHere) result.checkpointDecisions++;
    }
    if (checkpointHere) {
      if (scenario.staleCopies === "abort-on-contact" && bag.isCompleted(job)) {
        dropCopy(c);
        setPhase(c, IDLE);
        sim.at(sim.now, REQUEST, c);
        return;
      }
      transferMbit[c] = image(c, k);
      requestConnection(c, UPLOAD_WAIT);
    } else {
      copySlice[c] = k + 1;
      startSlice(c, sliceSeconds(c, k + 1));
    }
  }

  function onTransferEnd(c: number): void {
    const job = copyJob[c]!;
    const k = copySlice[c]!;
    const n = platform.sliceStart[job + 1]! - copyFirstSlice[c]!;
    const downloading = phase[c] === DOWNLOAD;
    server.release(c);
    if (downloading) {
      result.downloadedMbit += transferMbit[c]!;
      copySlice[c] = k + 1;
      startSlice(c, sliceSeconds(c, k + 1));
      return;
    }
    result.uploadedMbit += transferMbit[c]!;
    if (k === n) {
      result.resultsSent++;
      if (!bag.isCompleted(job)) complete(job, copyFirstCopy[c] === 1);
      else result.resultsDiscarded++;
      dropCopy(c);
      setPhase(c, IDLE);
      sim.at(sim.now, REQUEST, c);
      return;
    }
    result.checkpointsTaken++;
    if (bag.offerCheckpoint(job, k)) {
      result.checkpointsAccepted++;
      unsavedCompute[c] = 0;
    } else result.checkpointsOutdated++;
    copySlice[c] = k + 1;
    startSlice(c, sliceSeconds(c, k + 1));
  }

  /** The copy on c dies (abort-mode failure or end of lifetime): its unsaved work is lost. */
  function killCopy(c: number): void {
    if (copyJob[c]! < 0) return;
    let lost = unsavedCompute[c]!;
    if (phase[c] === COMPUTE && up[c] === 1) lost += sim.now - sliceStartedAt[c]!;
    else if (remainingSliceS[c]! >= 0) lost += sliceSeconds(c, copySlice[c]!) - remainingSliceS[c]!;
    result.lostComputationS += lost;
    interrupt(c);
    dropCopy(c);
  }

  function onAvailabilityChange(c: number): void {
    availabilityEvent[c] = -1;
    if (alive[c] === 0) return;
    if (up[c] === 1) {
      // Going down.
      result.failuresTransient++;
      if (suspend) {
        // The slice's compute end is at sliceStartedAt + its duration (see startSlice and the resume below).
        if (phase[c] === COMPUTE) remainingSliceS[c] = Math.max(0, sliceStartedAt[c]! + sliceSeconds(c, copySlice[c]!) - sim.now);
        interrupt(c);
        settle(c);
        up[c] = 0;
      } else {
        killCopy(c);
        settle(c);
        up[c] = 0;
        if (phase[c] !== HALTED) phase[c] = IDLE;
      }
    } else {
      settle(c);
      up[c] = 1;
      upSince[c] = sim.now;
      if (phase[c] === HALTED) {
        // Nothing to do: the server has no job for it.
      } else if (copyJob[c]! < 0) sim.at(sim.now, REQUEST, c);
      else if (phase[c] === COMPUTE) {
        const left = remainingSliceS[c]!;
        remainingSliceS[c] = -1;
        sliceStartedAt[c] = sim.now - (sliceSeconds(c, copySlice[c]!) - left);
        computeEvent[c] = sim.at(sim.now + left, COMPUTE_END, c);
      } else if (phase[c] === DOWNLOAD || phase[c] === DOWNLOAD_WAIT) {
        phase[c] = DOWNLOAD_WAIT;
        requestConnection(c, DOWNLOAD_WAIT);
      } else if (phase[c] === UPLOAD || phase[c] === UPLOAD_WAIT) {
        phase[c] = UPLOAD_WAIT;
        requestConnection(c, UPLOAD_WAIT);
      }
    }
    inputs.onAvailability?.(c, sim.now, up[c] === 1);
    const next = nextAvailabilityChange(c, up[c] === 1);
    if (next < Infinity) availabilityEvent[c] = sim.at(Math.max(sim.now, next), AVAILABILITY, c);
  }

  function onLifetimeEnd(c: number): void {
    if (alive[c] === 0) return;
    result.failuresPermanent++;
    killCopy(c);
    settle(c);
    alive[c] = 0;
    aliveCount--;
    if (availabilityEvent[c]! >= 0) sim.cancel(availabilityEvent[c]!);
    availabilityEvent[c] = -1;
  }

  function onRequest(c: number): void {
    if (alive[c] === 0 || up[c] === 0 || copyJob[c]! >= 0 || phase[c] === HALTED) return;
    handOut(c);
  }

  // t = 0: every client's state, its first availability change, its lifetime, its request.
  for (let c = 0; c < clients; c++) {
    let isUp = true;
    let nextChange: number;
    let since = 0;
    if (traceInfo !== null) {
      const node = traceInfo.trace.nodes[traceInfo.nodeOfClient[c]!]!;
      isUp = availableAt(node, traceInfo.originS);
      nextChange = nextChangeAfter(node, traceInfo.originS) - traceInfo.originS;
      if (isUp) since = availableSince(node, traceInfo.originS) - traceInfo.originS;
    } else if (scenario.startState === "stationary") {
      ({ up: isUp, nextChangeS: nextChange, sinceS: since } = stationaryStart(upLaw, downLaw, availabilityStream(c)));
    } else nextChange = upLaw.sample(availabilityStream(c));
    up[c] = isUp ? 1 : 0;
    upSince[c] = since;
    if (nextChange! < Infinity) availabilityEvent[c] = sim.at(nextChange!, AVAILABILITY, c);
    if (platform.lifetimeEndS[c]! < Infinity) sim.at(platform.lifetimeEndS[c]!, LIFETIME, c);
    if (isUp) sim.at(0, REQUEST, c);
  }

  const horizonS = scenario.horizonHours * 3600;
  sim.run(
    (kind, c) => {
      if (kind === COMPUTE_END) onComputeEnd(c);
      else if (kind === TRANSFER) server.transferEnded(c, onTransferEnd);
      else if (kind === AVAILABILITY) onAvailabilityChange(c);
      else if (kind === REQUEST) onRequest(c);
      else if (kind === LIFETIME) onLifetimeEnd(c);
      server.afterEvent();
    },
    {
      until: horizonS,
      stop: () => result.completedJobs === jobs || aliveCount === 0,
      ...(inputs.progress ? { progress: (now: number, events: number) => inputs.progress!(result.completedJobs, now, events), progressEvery: 100_000 } : {}),
    },
  );

  const endS = sim.now;
  for (let c = 0; c < clients; c++) settle(c);
  server.settle(endS);
  const connectionWaitS = buckets.waitS;
  return {
    policy: policy.name,
    makespanS: result.completedJobs === jobs ? result.lastResultS : null,
    endS,
    unfinishedJobs: jobs - result.completedJobs,
    completedJobs: result.completedJobs,
    checkpointOverheadS: buckets.uploadS + buckets.downloadS + connectionWaitS,
    lostComputationS: result.lostComputationS,
    connectionWaitS,
    downloadS: buckets.downloadS,
    duplicateWorkS: result.duplicateWorkS,
    checkpointsTaken: result.checkpointsTaken,
    sliceBoundaries: result.sliceBoundaries,
    checkpointDecisions: result.checkpointDecisions,
    checkpointsAccepted: result.checkpointsAccepted,
    checkpointsOutdated: result.checkpointsOutdated,
    resultsSent: result.resultsSent,
    resultsDiscarded: result.resultsDiscarded,
    copies: result.copies,
    jobsFinishedByDuplicate: result.jobsFinishedByDuplicate,
    uploadedMbit: result.uploadedMbit,
    downloadedMbit: result.downloadedMbit,
    failuresTransient: result.failuresTransient,
    failuresPermanent: result.failuresPermanent,
    events: sim.events,
    dpCalls: planner.stats.dpCalls,
    dpCacheHits: planner.stats.dpCacheHits,
    buckets,
    ...(server.stats !== null ? { server: { ...server.stats } } : {}),
  };
}
