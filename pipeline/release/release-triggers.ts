/**
 * When the release hook should act by itself (`ckpt release --watch`), pure: from what the
 * scheduler says will take nodes — a reservation about to start on them, a drain — the
 * releases due now, each once. A reservation is due when it starts within the deadline T
 * (its start is the release time); a drain takes its nodes T seconds after it is first seen
 * (a drain has no date: T is the grace the cluster gives the jobs). Only nodes that run jobs
 * are worth a release: that filter is the caller's, who knows the jobs.
 */

export interface UpcomingReservation {
  name: string;
  /** Epoch seconds. */
  startS: number;
  nodes: string[];
  /** Slurm's State=: ACTIVE once it has started. */
  active: boolean;
}

export interface NodeTakeovers {
  reservations: UpcomingReservation[];
  /** Nodes being drained (no new jobs; running ones go on until taken). */
  draining: string[];
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
 * The releases due at `nowS` among the nodes watched (all when `watched` is null). Updates
 * `state.drainSeenS` (a node no longer draining is forgotten); the caller adds a release's
 * keys to `state.handled` once it has acted on it.
 */
export function dueReleases(takeovers: NodeTakeovers, nowS: number, deadlineS: number, watched: Set<string> | null, state: TriggerState): DueRelease[] {
  const isWatched = (node: string) => watched === null || watched.has(node);
  const due: DueRelease[] = [];
  for (const r of takeovers.reservations) {
    const nodes = r.nodes.filter(isWatched);
    const key = `reservation ${r.name}@${r.startS}`;
    if (nodes.length === 0 || r.active || state.handled.has(key)) continue;
    if (r.startS - nowS <= deadlineS) due.push({ keys: [key], reason: `reservation ${r.name} starts at ${new Date(r.startS * 1000).toISOString()}`, nodes, releaseAtS: r.startS });
  }
  const draining = new Set(takeovers.draining.filter(isWatched));
  for (const node of [...state.drainSeenS.keys()]) if (!draining.has(node)) state.drainSeenS.delete(node);
  const fresh: string[] = [];
  for (const node of draining) {
    if (!state.drainSeenS.has(node)) state.drainSeenS.set(node, nowS);
    if (!state.handled.has(`drain ${node}@${state.drainSeenS.get(node)}`)) fresh.push(node);
  }
  // Nodes whose drain was seen at the same poll are released together.
  const bySeen = new Map<number, string[]>();
  for (const node of fresh) bySeen.set(state.drainSeenS.get(node)!, [...(bySeen.get(state.drainSeenS.get(node)!) ?? []), node]);
  for (const [seenS, nodes] of bySeen) {
    due.push({ keys: nodes.map((n) => `drain ${n}@${seenS}`), reason: `drain of ${nodes.join(", ")} seen at ${new Date(seenS * 1000).toISOString()}`, nodes, releaseAtS: seenS + deadlineS });
  }
  return due;
}
