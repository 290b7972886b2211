/**
 * The event loop of a discrete-event simulation, knowing nothing of what is simulated
 * (SimPy's core in one function: schedule puts (time, rank, event) on a heap, run pops and
 * fires). A model declares its event kinds in priority order — simultaneous events fire in
 * that order, then by entity id, then in the order they were scheduled (docs/science.md
 * §6.4) — and hands `run` one handler that receives every event.
 *
 * Time is a float64 number of seconds that only moves forward; `now` is the time of the
 * event being handled. Completion times should be computed as start + duration, not by
 * accumulating increments (docs/science.md §6.4), which `at(time)` makes natural.
 *
 * @example
 *   const sim = createSimulation({ kinds: ["arrival", "departure"] });
 *   sim.at(0, "arrival", 0);
 *   sim.run((kind, entity) => { if (kind === 0) sim.after(5, "departure", entity); });
 */
import { createEventQueue, type PoppedEvent } from "./event-queue";

export interface SimulationOptions {
  /** Event kind names, highest priority first (index = kind number). */
  kinds: readonly string[];
  /** Largest entity id + 1 the model will use (for the tie-break rank); default 2^26. */
  maxEntities?: number;
  /** Initial capacity of the event queue. */
  capacity?: number;
}

/** Receives every event; `payload` is the number given when it was scheduled. */
export type EventHandler = (kind: number, entity: number, payload: number, id: number) => void;

export interface RunOptions {
  /** Stop before any event later than this time (the clock stays at the last event handled). */
  until?: number;
  /** Checked after each event; the run stops when it returns true. */
  stop?: () => boolean;
  /** Called about every `progressEvery` events with (now, events handled so far). */
  progress?: (now: number, events: number) => void;
  progressEvery?: number;
}

export interface Simulation {
  /** The current time, seconds. */
  readonly now: number;
  /** Events handled so far. */
  readonly events: number;
  /** Kind number of a kind name (throws for an unknown name). */
  kind(name: string): number;
  /** Schedule at an absolute time ≥ now; returns the event's id. */
  at(time: number, kind: string | number, entity: number, payload?: number): number;
  /** Schedule after a delay ≥ 0. */
  after(delay: number, kind: string | number, entity: number, payload?: number): number;
  cancel(id: number): void;
  /** Time of the next pending event (Infinity when none). */
  nextTime(): number;
  /** Handle events in order until none is left, `until` is passed or `stop` says so. */
  run(handler: EventHandler, options?: RunOptions): void;
}

export function createSimulation(options: SimulationOptions): Simulation {
  const kindNames = [...options.kinds];
  if (kindNames.length === 0 || new Set(kindNames).size !== kindNames.length) {
    throw new RangeError(`event kinds must be distinct names, got ${JSON.stringify(kindNames)}`);
  }
  const kindNumbers = new Map(kindNames.map((name, i) => [name, i]));
  const maxEntities = options.maxEntities ?? 2 ** 26;
  const queue = createEventQueue(options.capacity);
  let now = 0;
  let events = 0;

  const kindOf = (kind: string | number): number => {
    const number = typeof kind === "number" ? kind : kindNumbers.get(kind);
    if (number === undefined || !(number >= 0 && number < kindNames.length)) {
      throw new RangeError(`unknown event kind ${JSON.stringify(kind)}; kinds are ${kindNames.join(", ")}`);
    }
    return number;
  };

  const at = (time: number, kind: string | number, entity: number, payload = 0): number => {
    if (!(time >= now)) throw new RangeError(`cannot schedule at ${time} s: the clock is at ${now} s (events only go forward)`);
    if (!(entity >= 0 && entity < maxEntities && Number.isInteger(entity))) throw new RangeError(`entity id must be an integer in [0, ${maxEntities}), got ${entity}`);
    const k = kindOf(kind);
    // Rank: kind first, then entity (docs/science.md §6.4), packed exactly in a float64.
    return queue.push(time, k * maxEntities + entity, k, entity, payload);
  };

  return {
    get now() {
      return now;
    },
    get events() {
      return events;
    },
    kind: (name) => kindOf(name),
    at,
    after: (delay, kind, entity, payload) => {
      if (!(delay >= 0)) throw new RangeError(`a delay must be ≥ 0 s, got ${delay}`);
      return at(now + delay, kind, entity, payload);
    },
    cancel: (id) => queue.cancel(id),
    nextTime: () => queue.peekTime(),
    run(handler, run = {}) {
      const until = run.until ?? Infinity;
      const every = run.progressEvery ?? 1_000_000;
      const event: PoppedEvent = { id: 0, time: 0, kind: 0, entity: 0, payload: 0 };
      while (queue.peekTime() <= until && queue.pop(event)) {
        now = event.time;
        events++;
        handler(event.kind, event.entity, event.payload, event.id);
        if (run.progress !== undefined && events % every === 0) run.progress(now, events);
        if (run.stop?.()) break;
      }
    },
  };
}
