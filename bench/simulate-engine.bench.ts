/**
 * `npm run bench -- simulate-engine`: the simulation engine's events per second (target
 * ≥ 1 M events/s end to end on one core, issue of the [BKT] simulator), under a realistic
 * mix — a hold model: H entities each with one pending event; handling an event schedules
 * the entity's next one after an exponential delay, and one event in ten also cancels and
 * reschedules another entity's (as a failure cancels a transfer's end) — at H = 10^3, 10^4,
 * 10^5 pending events and 2·10^6 events handled.
 *
 * Reference in the same run: the same hold model on a plain binary heap of objects in a JS
 * array (the first thing one would write), with the same cancellations done lazily.
 */
import { createEventQueue, type PoppedEvent } from "../pipeline/simulate/engine/event-queue";
import { createSimulation } from "../pipeline/simulate/engine/simulation";
import { createRandom } from "../pipeline/shared/random";
import { median, printTable, timeRuns } from "./harness";

const EVENTS = 2_000_000;

export function engineHold(held: number): number {
  const random = createRandom(1);
  const sim = createSimulation({ kinds: ["next"], capacity: held * 2 });
  const pending = new Float64Array(held);
  for (let e = 0; e < held; e++) pending[e] = sim.at(-Math.log(1 - random.next()), "next", e);
  sim.run(
    (_kind, entity) => {
      pending[entity] = sim.after(-Math.log(1 - random.next()), "next", entity);
      if (random.next() < 0.1) {
        const other = Math.floor(random.next() * held);
        if (other !== entity) {
          sim.cancel(pending[other]!);
          pending[other] = sim.after(-Math.log(1 - random.next()), "next", other);
        }
      }
    },
    { stop: () => sim.events >= EVENTS },
  );
  return sim.events;
}

interface Node {
  time: number;
  sequence: number;
  entity: number;
  cancelled: boolean;
}

/** The reference: an array of objects kept as a binary heap. */
export function objectHeapHold(held: number): number {
  const random = createRandom(1);
  const heap: Node[] = [];
  let sequence = 0;
  const less = (a: Node, b: Node) => a.time < b.time || (a.time === b.time && a.sequence < b.sequence);
  const push = (node: Node) => {
    heap.push(node);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const pop = (): Node => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= heap.length) break;
        if (child + 1 < heap.length && less(heap[child + 1]!, heap[child]!)) child++;
        if (!less(heap[child]!, heap[i]!)) break;
        [heap[i], heap[child]] = [heap[child]!, heap[i]!];
        i = child;
      }
    }
    return top;
  };
  const pending: Node[] = [];
  let now = 0;
  for (let e = 0; e < held; e++) push((pending[e] = { time: -Math.log(1 - random.next()), sequence: sequence++, entity: e, cancelled: false }));
  let events = 0;
  while (events < EVENTS) {
    const node = pop();
    if (node.cancelled) continue;
    now = node.time;
    events++;
    push((pending[node.entity] = { time: now - Math.log(1 - random.next()), sequence: sequence++, entity: node.entity, cancelled: false }));
    if (random.next() < 0.1) {
      const other = Math.floor(random.next() * held);
      if (other !== node.entity) {
        pending[other]!.cancelled = true;
        push((pending[other] = { time: now - Math.log(1 - random.next()), sequence: sequence++, entity: other, cancelled: false }));
      }
    }
  }
  return events;
}

/** Raw queue throughput: push then pop, no model. */
function rawQueue(held: number): number {
  const random = createRandom(2);
  const queue = createEventQueue(held * 2);
  const event: PoppedEvent = { id: 0, time: 0, kind: 0, entity: 0, payload: 0 };
  for (let e = 0; e < held; e++) queue.push(random.next(), 0, 0, e, 0);
  for (let i = 0; i < EVENTS; i++) {
    queue.pop(event);
    queue.push(event.time + random.next(), 0, 0, event.entity, 0);
  }
  return EVENTS;
}

export default async function bench(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const held of [1_000, 10_000, 100_000]) {
    const engine = median(await timeRuns(() => engineHold(held), 5));
    const reference = median(await timeRuns(() => objectHeapHold(held), 5));
    const raw = median(await timeRuns(() => rawQueue(held), 5));
    rows.push([held, EVENTS, (EVENTS / engine / 1000).toFixed(2), (EVENTS / reference / 1000).toFixed(2), (reference / engine).toFixed(2), (EVENTS / raw / 1000).toFixed(2)]);
  }
  printTable(
    "simulation engine, hold model (10 % of events cancel and reschedule another), median of 5 runs, one core",
    ["pending events", "events handled", "engine M events/s", "object heap M events/s", "speed-up ×", "raw queue M push+pop/s"],
    rows,
  );
  console.log("target: ≥ 1 M events/s end to end");
}
