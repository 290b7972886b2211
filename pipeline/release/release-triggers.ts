/**
 * When the release hook should act by itself (`ckpt release --watch`), pure: from what the
 * scheduler says will take nodes — a reservation about to start on them, a drain — the
 * releases due now, each once, most urgent first. A reservation is due when it starts
 * within the deadline T (its start is the release time); a drain takes its nodes T seconds
 * after it is first seen (a drain has no date: T is the grace the cluster gives the jobs).
 *
 * Not every drain or reservation takes nodes away from their jobs (an administrator drains
 * a node to stop new jobs on it; a reservation may be for a user): the hook acts only on
 * those it is told to — drains whose reason matches a pattern, reservations with a flag
 * (MAINT) — and on none by default.
 */

export interface UpcomingReservation {
  name: string;
  /** Epoch seconds. */
  startS: number;
  nodes: string[];
  /** Slurm's Flags=, e.g. ["MAINT", "IGNORE_JOBS", "SPEC_NODES"]. */
  flags: string[];
  /** Slurm's State=: ACTIVE once it has started. */
  active: boolean;
}

export interface DrainingNode {
  node: string;
  /** The reason the administrator gave (sinfo %E). */
  reason: string;
}

export interface NodeTakeovers {
  reservations: UpcomingReservation[];
  /** Nodes being drained (no new jobs; running ones go on until taken). */
  drains: DrainingNode[];
}

/** Which events the hook acts on. */
export interface TriggerFilter {
  /** Drains whose reason matches (null: no drain). */
  drainReason: RegExp | null;
  /** Reservations that have this flag, case-insensitive (null: no reservation). */
  reservationFlag: string | null;
}

export interface DueRelease {
  /** Identities of the events, so that each is released once: "reservation maint@1795641831", "drain n3@…". */
  keys: string[];
  reason: string;
  nodes: string[];
  releaseAtS: number;
}

export interface TriggerState {
  /** When each draining node was first seen draining (epoch s). */
  drainSeenS: Map<string, number>;
  /** Keys already released. */
  handled: Set<string>;
}

export const newTriggerState = (): TriggerState => ({ drainSeenS: new Map(), handled: new Set() });

/**
 * The releases due at `nowS` among the nodes watched (all when `watched` is null), the
 * soonest first. Updates `state.drainSeenS` (a node no longer draining, or whose drain the
 * filter does not take, is forgotten); the caller adds a release's keys to `state.handled`
 * once it has acted on it.
 */
export function dueReleases(takeovers: NodeTakeovers, nowS: number, deadlineS: number, watched: Set<string> | null, filter: TriggerFilter, state: TriggerState): DueRelease[] {
  const isWatched = (node: string) => watched === null || watched.has(node);
  const due: DueRelease[] = [];
  const flag = filter.reservationFlag?.toUpperCase() ?? null;
  for (const r of takeovers.reservations) {
    if (flag === null || !r.flags.some((f) => f.toUpperCase() === flag)) continue;
    const nodes = r.nodes.filter(isWatched);
    const key = `reservation ${r.name}@${r.startS}`;
    if (nodes.length === 0 || r.active || state.handled.has(key)) continue;
    if (r.startS - nowS <= deadlineS) due.push({ keys: [key], reason: `reservation ${r.name} (${flag}) starts at ${new Date(r.startS * 1000).toISOString()}`, nodes, releaseAtS: r.startS });
  }
  const reasons = new Map(takeovers.drains.filter((d) => isWatched(d.node) && filter.drainReason !== null && filter.drainReason.test(d.reason)).map((d) => [d.node, d.reason]));
  for (const node of [...state.drainSeenS.keys()]) if (!reasons.has(node)) state.drainSeenS.delete(node);
  const fresh: string[] = [];
  for (const node of reasons.keys()) {
    if (!state.drainSeenS.has(node)) state.drainSeenS.set(node, nowS);
    if (!state.handled.has(`drain ${node}@${state.drainSeenS.get(node)}`)) fresh.push(node);
  }
  // Nodes whose drain was seen at the same poll are released together.
  const bySeen = new Map<number, string[]>();
  for (const node of fresh) bySeen.set(state.drainSeenS.get(node)!, [...(bySeen.get(state.drainSeenS.get(node)!) ?? []), node]);
  for (const [seenS, nodes] of bySeen) {
    const why = [...new Set(nodes.map((n) => reasons.get(n)))].join("; ");
    due.push({ keys: nodes.map((n) => `drain ${n}@${seenS}`), reason: `drain of ${nodes.join(", ")} ("${why}") seen at ${new Date(seenS * 1000).toISOString()}`, nodes, releaseAtS: seenS + deadlineS });
  }
  return due.sort((a, b) => a.releaseAtS - b.releaseAtS);
}
