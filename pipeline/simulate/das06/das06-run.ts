/**
 * One run of [DAS06]'s institutional desktop grid (docs/science.md §6.2): a bag of tasks
 * submitted at `startS` to the machines of a trace, scheduled by one of the four policies,
 * until every task has finished (or the trace ends: the run is then censored).
 *
 * Mechanics, as docs/science.md §6.2.5 settles them:
 * - An available, idle machine requests a task at once; requests at the same instant are
 *   served in a seeded random order of the machines, drawn once per run and the same for all
 *   policies. Unassigned tasks wait in a queue; a task given back goes to its head.
 * - A task of R reference seconds runs at the machine's speed ratio; checkpoints (at 50 %,
 *   or every 10 %) cost checkpointMb / lanMBytePerS seconds during which it does not progress,
 *   and make progress durable once written: in the shared repository (usable by any machine)
 *   or on the executing machine only (private). A machine's failure kills its instance, and
 *   a checkpoint it was writing. With a measured server (`checkpointServer`, docs/science.md
 *   §6.6) a shared checkpoint's write is a transfer to it instead: the writes in progress share
 *   its bw(m, V), each capped by the LAN rate, and the task resumes when its write completes.
 * - What the scheduler knows: with shared checkpoints it sees machine availability at every
 *   refresh (120 s) and gives a failed machine's task back to the queue then; with private
 *   ones it never sees failures: the task stays bound to its machine and resumes there when
 *   the machine returns — unless a timeout (AT) reassigns it.
 * - AT: at assignment a deadline base·(1 + tol), base = remaining reference CPU / ratio, tol
 *   by the assignment instant's period (night 10 %, weekend 5 %, daytime
 *   min(0.5, 0.2 + 0.1·R/3600 s)); at expiry the instance is cancelled (`onTimeout`) and the
 *   task goes to the head of the queue.
 * - TR: a free machine with an empty queue receives a replica of the uncompleted task with the
 *   fewest instances, then the latest estimated completion, then the lowest index, up to
 *   `maxInstances` instances; the first instance to finish completes the task and the others
 *   are killed.
 * - PRDCT-DMD: at every round, each busy machine predicted to fail before the next round
 *   checkpoints on demand and, if a machine is free and the task has fewer than
 *   `maxInstances` instances, the task is replicated (from that checkpoint when shared).
 *   The predictor reads the trace ahead (`oracle`, a perfect predictor: an upper bound) or
 *   errs at given rates (`noisy-oracle`).
 */
import type { Random } from "../../shared/random";
import { createSimulation } from "../engine/simulation";
import { createFluidServer, type FluidServerStats } from "../server/fluid-server";
import type { MeasuredServer } from "../server/measured-server";
import { availableAt, nextChangeAfter, type NodeAvailability } from "../traces/availability-trace";
import type { Das06Policy, Das06Scenario } from "./das06-scenario";

export interface Das06RunInputs {
  scenario: Das06Scenario;
  policy: Das06Policy;
  /** Availability of each simulated machine, intervals in seconds from the trace's start. */
  machines: NodeAvailability[];
  /** The trace ends here (s from its start): nothing is known after. */
  traceEndS: number;
  ratios: Float64Array;
  startS: number;
  /** Rank of each machine in the order simultaneous requests are served. */
  requestRank: Int32Array;
  /** For the noisy predictor. */
  predictorRandom: Random;
  /** Seconds from the trace's start to a Monday 00:00 (the scenario's, or the trace's as UTC). */
  mondayOffsetS: number;
  /** The shared repository as a measured server (the scenario's `checkpointServer`, loaded); null or absent: the LAN cost. */
  server?: MeasuredServer | null;
}

export interface Das06RunResult {
  turnaroundS: number | null;
  censored: boolean;
  /** Instances killed by a machine's failure. */
  failures: number;
  /**
   * Instances started again for a task that had already run, other than replicas: after the
   * scheduler took it back (a shared refresh, a timeout), or on its private machine's return.
   */
  restarts: number;
  /** Reference CPU seconds of progress lost at failures (since each instance's last durable checkpoint). */
  lostWorkS: number;
  replicas: number;
  timeouts: number;
  checkpoints: number;
  onDemandCheckpoints: number;
  events: number;
  /** With a measured server (shared store) only: what it did, and how long the run lasted (s). */
  server?: FluidServerStats & { runS: number };
}

// A failure at the very instant a checkpoint's write ends comes first: that checkpoint is lost.
const KINDS = ["availability", "milestone", "written", "timeout", "round", "request"] as const;
const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** The adaptive timeout's period at t (s from a Monday 00:00): the weekend closure, a night (00:00–08:00 Mon–Sat outside it) or day. */
export function periodAt(t: number): "weekend" | "night" | "day" {
  const inWeek = ((t % WEEK) + WEEK) % WEEK;
  const day = Math.floor(inWeek / DAY);
  const hour = (inWeek - day * DAY) / HOUR;
  if (day === 6 || (day === 5 && hour >= 21) || (day === 0 && hour < 8)) return "weekend";
  return hour < 8 ? "night" : "day";
}

/** Checkpoint positions as fractions of the task (docs/science.md §6.2.4, reading D2). */
export function checkpointPositions(checkpoints: 0 | 1 | 9): number[] {
  return checkpoints === 0 ? [] : checkpoints === 1 ? [0.5] : [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
}

export function runDas06(inputs: Das06RunInputs): Das06RunResult {
  const { scenario: s, policy, machines, ratios, startS, requestRank } = inputs;
  const M = machines.length;
  const T = s.tasks;
  const R = s.taskCpuS;
  const shared = s.checkpointStore === "shared";
  const timeouts = policy !== "FCFS";
  const replication = policy === "FCFS-TR" || policy === "FCFS-PRDCT-DMD";
  const prediction = policy === "FCFS-PRDCT-DMD";
  const positions = checkpointPositions(s.checkpoints);
  const checkpointCostS = s.checkpointMb / s.lanMBytePerS;
  // Private checkpoints stay on their machine: only shared ones are written to a measured server.
  const fluid = inputs.server && shared ? createFluidServer(inputs.server, M) : null;
  let fluidEvent = -1;
  const sim = createSimulation({ kinds: KINDS, maxEntities: Math.max(M, 1), capacity: 8 * M });
  const [AVAILABILITY, MILESTONE, WRITTEN, TIMEOUT, ROUND, REQUEST] = KINDS.map((k) => sim.kind(k)) as [number, number, number, number, number, number];
  const machineOfRank = new Int32Array(M);
  for (let m = 0; m < M; m++) machineOfRank[requestRank[m]!] = m;

  const up = new Uint8Array(M);
  const running = new Int32Array(M).fill(-1); // task physically running on m
  const believed = new Int32Array(M).fill(-1); // task the scheduler believes runs on m
  const failedSinceRefresh = new Uint8Array(M);
  // Two counters make stale events harmless: `assignment` changes when the scheduler assigns or
  // takes back m's task (timeouts belong to an assignment, and survive a private machine's
  // failure and restart); `execution` changes whenever what m computes changes (milestones).
  const assignment = new Float64Array(M);
  const execution = new Float64Array(M);
  const baseProgress = new Float64Array(M); // progress at resumeS
  const resumeS = new Float64Array(M);
  const nextTarget = new Float64Array(M); // the milestone being worked toward (a checkpoint position, or 1)
  const durableProgress = new Float64Array(M); // the instance's progress that a failure would not lose
  const writing = new Float64Array(M); // progress the checkpoint being written will make durable
  const done = new Uint8Array(T);
  const started = new Uint8Array(T); // the task has had an instance
  const instances = new Int32Array(T);
  const sharedProgress = new Float64Array(T);
  const localProgress = new Float64Array(M * T);
  const queue: number[] = Array.from({ length: T }, (_, t) => t);
  let remaining = T;
  let lastCompletionS = startS;
  const result: Das06RunResult = { turnaroundS: null, censored: false, failures: 0, restarts: 0, lostWorkS: 0, replicas: 0, timeouts: 0, checkpoints: 0, onDemandCheckpoints: 0, events: 0 };

  const secondsPerUnit = (m: number) => R / ratios[m]!;
  const progressNow = (m: number) => Math.min(nextTarget[m]!, baseProgress[m]! + Math.max(0, sim.now - resumeS[m]!) / secondsPerUnit(m));
  const request = (m: number) => sim.at(sim.now, REQUEST, requestRank[m]!);

  function scheduleMilestone(m: number): void {
    const progress = baseProgress[m]!;
    let target = 1;
    for (const p of positions) {
      if (p > progress + 1e-12) {
        target = p;
        break;
      }
    }
    nextTarget[m] = target;
    sim.at(resumeS[m]! + (target - progress) * secondsPerUnit(m), MILESTONE, m, execution[m]!);
  }

  /** What m computes changes: its pending events go stale, and a checkpoint it is writing to a measured server is abandoned. */
  function newExecution(m: number): void {
    execution[m]++;
    if (fluid !== null) fluid.stop(m, sim.now);
  }

  function startInstance(m: number, task: number, replica = false): void {
    if (started[task] === 1 && !replica) result.restarts++;
    started[task] = 1;
    newExecution(m);
    running[m] = task;
    baseProgress[m] = shared ? sharedProgress[task]! : localProgress[m * T + task]!;
    durableProgress[m] = baseProgress[m]!;
    resumeS[m] = sim.now;
    scheduleMilestone(m);
  }

  function tolerance(): number {
    const period = periodAt(sim.now - inputs.mondayOffsetS);
    if (period === "night") return s.tolerance.night;
    if (period === "weekend") return s.tolerance.weekend;
    return Math.min(s.tolerance.dayMax, s.tolerance.dayBase + (s.tolerance.dayPerHour * R) / 3600);
  }

  function assign(m: number, task: number, replica = false): void {
    assignment[m]++;
    believed[m] = task;
    instances[task]++;
    startInstance(m, task, replica);
    if (timeouts) {
      const base = (1 - baseProgress[m]!) * secondsPerUnit(m);
      sim.at(sim.now + base * (1 + tolerance()), TIMEOUT, m, assignment[m]!);
    }
  }

  /** Stop m's instance (killed, cancelled, or its task done elsewhere); the machine asks for work if it can. */
  function release(m: number, ask: boolean): void {
    assignment[m]++;
    newExecution(m);
    running[m] = -1;
    const task = believed[m]!;
    believed[m] = -1;
    if (task >= 0) instances[task]--;
    if (ask && up[m] === 1) request(m);
    // A task below its instance limit may now be replicated: idle machines ask again.
    if (replication && task >= 0 && done[task] === 0) wakeIdle();
  }

  function giveBack(task: number): void {
    if (done[task] === 0 && instances[task] === 0 && !queue.includes(task)) {
      queue.unshift(task);
      wakeIdle();
    }
  }

  /** Every available idle machine asks for work (in the run's request order). */
  function wakeIdle(): void {
    for (let m = 0; m < M; m++) if (up[m] === 1 && believed[m]! < 0) request(m);
  }

  function onRequest(m: number): void {
    if (up[m] === 0 || believed[m]! >= 0 || remaining === 0) return;
    if (queue.length > 0) {
      assign(m, queue.shift()!);
      return;
    }
    if (!replication) return;
    let best = -1;
    let bestInstances = Infinity;
    let bestFinish = -Infinity;
    for (let t = 0; t < T; t++) {
      if (done[t] === 1 || instances[t]! >= s.maxInstances) continue;
      let fastest = 0;
      let progress = sharedProgress[t]!;
      for (let k = 0; k < M; k++) {
        if (believed[k] !== t) continue;
        fastest = Math.max(fastest, ratios[k]!);
        if (running[k] === t) progress = Math.max(progress, progressNow(k));
      }
      const finish = fastest > 0 ? ((1 - progress) * R) / fastest : Infinity;
      if (instances[t]! < bestInstances || (instances[t] === bestInstances && finish > bestFinish)) {
        best = t;
        bestInstances = instances[t]!;
        bestFinish = finish;
      }
    }
    if (best >= 0) {
      result.replicas++;
      assign(m, best, true);
    }
  }

  function durable(m: number, task: number, progress: number): void {
    durableProgress[m] = progress;
    if (shared) sharedProgress[task] = Math.max(sharedProgress[task]!, progress);
    else localProgress[m * T + task] = Math.max(localProgress[m * T + task]!, progress);
  }

  /** Write a checkpoint of `progress` now: the task pauses for its cost, and the progress is durable once written (a failure before loses it). */
  function writeCheckpoint(m: number, progress: number): void {
    baseProgress[m] = progress;
    writing[m] = progress;
    if (fluid !== null) {
      // Paused until the server has the image (progressNow stays at `progress` meanwhile); a write in progress is superseded.
      resumeS[m] = Infinity;
      fluid.stop(m, sim.now);
      fluid.start(m, s.checkpointMb, s.lanMBytePerS, sim.now);
      return;
    }
    resumeS[m] = sim.now + checkpointCostS;
    sim.at(resumeS[m]!, WRITTEN, m, execution[m]!);
    scheduleMilestone(m);
  }

  /** The measured server's next completion(s): each machine's checkpoint is durable and its task resumes. */
  function onServerWritten(): void {
    fluidEvent = -1;
    for (const m of fluid!.takeCompleted(sim.now)) {
      durable(m, running[m]!, writing[m]!);
      resumeS[m] = sim.now;
      scheduleMilestone(m);
    }
  }

  function onMilestone(m: number): void {
    const task = running[m]!;
    const target = nextTarget[m]!;
    if (target >= 1) {
      done[task] = 1;
      remaining--;
      lastCompletionS = sim.now;
      for (let k = 0; k < M; k++) if (k !== m && (believed[k] === task || running[k] === task)) release(k, true);
      release(m, true);
      return;
    }
    result.checkpoints++;
    writeCheckpoint(m, target);
  }

  function onTimeout(m: number): void {
    const task = believed[m]!;
    if (task < 0 || done[task] === 1) return;
    result.timeouts++;
    if (s.onTimeout === "cancel") {
      release(m, false);
      giveBack(task);
      if (up[m] === 1) request(m);
    } else if (!queue.includes(task)) queue.unshift(task);
  }

  function onAvailability(m: number): void {
    const nowUp = availableAt(machines[m]!, sim.now) && sim.now < inputs.traceEndS;
    if (nowUp && up[m] === 0) {
      up[m] = 1;
      if (running[m]! < 0) {
        // Private: the scheduler still believes the task runs here, and it resumes here.
        if (believed[m]! >= 0 && !shared) startInstance(m, believed[m]!);
        else if (believed[m]! < 0) request(m);
      }
    } else if (!nowUp && up[m] === 1) {
      up[m] = 0;
      if (running[m]! >= 0) {
        result.failures++;
        result.lostWorkS += (progressNow(m) - durableProgress[m]!) * R;
        newExecution(m);
        running[m] = -1;
        failedSinceRefresh[m] = 1;
      }
    }
    const next = nextChangeAfter(machines[m]!, sim.now);
    if (next < inputs.traceEndS) sim.at(next, AVAILABILITY, m);
    else if (up[m] === 1 && inputs.traceEndS > sim.now) sim.at(inputs.traceEndS, AVAILABILITY, m);
  }

  function onRound(): void {
    if (shared) {
      for (let m = 0; m < M; m++) {
        if (failedSinceRefresh[m] === 0) continue;
        failedSinceRefresh[m] = 0;
        const task = believed[m]!;
        if (task >= 0 && running[m] !== task) {
          release(m, true);
          giveBack(task);
        }
      }
    }
    if (prediction) {
      for (let m = 0; m < M; m++) {
        const task = running[m]!;
        if (task < 0) continue;
        // A failure at the next round's instant counts: state changes apply before that round.
        const failsSoon = nextChangeAfter(machines[m]!, sim.now) <= sim.now + s.refreshS;
        const predicted = s.predictor === "oracle" ? failsSoon : failsSoon ? inputs.predictorRandom.next() >= s.falseNegative : inputs.predictorRandom.next() < s.falsePositive;
        if (!predicted) continue;
        // Checkpoint on demand, then replicate if a machine is free.
        result.onDemandCheckpoints++;
        const progress = progressNow(m);
        newExecution(m);
        writeCheckpoint(m, progress);
        // Shared: the replica created below starts from this checkpoint (docs/science.md §6.2.5),
        // reading the image as it is written (its 0.08 s write overlaps the replica's start).
        if (shared) sharedProgress[task] = Math.max(sharedProgress[task]!, progress);
        if (instances[task]! < s.maxInstances) {
          for (let rank = 0; rank < M; rank++) {
            const free = machineOfRank[rank]!;
            if (up[free] === 1 && believed[free]! < 0) {
              result.replicas++;
              assign(free, task, true);
              break;
            }
          }
        }
      }
    }
    if (remaining > 0) sim.at(sim.now + s.refreshS, ROUND, 0);
  }

  for (let m = 0; m < M; m++) {
    up[m] = availableAt(machines[m]!, startS) && startS < inputs.traceEndS ? 1 : 0;
    const next = nextChangeAfter(machines[m]!, startS);
    sim.at(Math.max(startS, Math.min(next, inputs.traceEndS)), AVAILABILITY, m);
  }
  // The clock starts at the run's start (no event before it).
  const clockStart = sim.at(startS, ROUND, 0);
  if (!(shared || prediction)) sim.cancel(clockStart);
  for (let m = 0; m < M; m++) if (up[m] === 1) sim.at(startS, REQUEST, requestRank[m]!);

  sim.run(
    (kind, entity, payload) => {
      if (kind === REQUEST) onRequest(machineOfRank[entity]!);
      else if (kind === AVAILABILITY) onAvailability(entity);
      else if (kind === MILESTONE) {
        if (payload === execution[entity] && running[entity]! >= 0) onMilestone(entity);
      } else if (kind === WRITTEN) {
        if (fluid !== null) onServerWritten();
        else if (payload === execution[entity] && running[entity]! >= 0) durable(entity, running[entity]!, writing[entity]!);
      } else if (kind === TIMEOUT) {
        if (payload === assignment[entity]) onTimeout(entity);
      } else if (kind === ROUND) onRound();
      // One event for the measured server's next completion, set again when its writes changed.
      if (fluid !== null && fluid.changed) {
        if (fluidEvent >= 0) sim.cancel(fluidEvent);
        const next = fluid.nextCompletionS(sim.now);
        fluidEvent = next < Infinity ? sim.at(next, WRITTEN, 0) : -1;
      }
    },
    { until: inputs.traceEndS, stop: () => remaining === 0 },
  );
  result.events = sim.events;
  if (fluid !== null) {
    fluid.settle(sim.now);
    result.server = { ...fluid.stats, runS: sim.now - startS };
  }
  if (remaining === 0) result.turnaroundS = lastCompletionS - startS;
  else result.censored = true;
  return result;
}
