/**
 * Leases: "this sweep (or this combination) is being worked on by process P on host H
 * until time T". A live runner renews its leases; a crashed one stops renewing, and its
 * leases are free once they expire — or at once when the owner was on this host and its
 * process no longer exists. So a killed sweep never needs hand cleaning, and two runners
 * never work on one sweep folder at the same time.
 *
 * The runner's lease file is created with link(2), which fails if the file exists: of two
 * runners starting together exactly one gets it. Taking over a dead lease renames it away
 * first and checks that what was renamed is the dead lease that was judged (not a fresh one
 * another runner just wrote), so two runners taking over together cannot both win.
 */
import { randomUUID } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { InputError } from "../shared/errors";
import { writeJsonAtomic } from "../shared/atomic-write";
import { processAlive } from "../shared/process-alive";

export interface LeaseOwner {
  host: string;
  pid: number;
  /** Unique per runner: tells two runners apart even with a reused pid. */
  token: string;
}

export interface Lease {
  owner: LeaseOwner;
  acquiredAtMs: number;
  expiresAtMs: number;
}

export function currentOwner(): LeaseOwner {
  return { host: hostname(), pid: process.pid, token: randomUUID() };
}

/** A lease is dead when it has expired, or its owner was on this host and has exited. */
export function leaseIsDead(lease: Lease, nowMs: number, thisHost = hostname()): boolean {
  if (lease.expiresAtMs <= nowMs) return true;
  if (lease.owner.host === thisHost && !processAlive(lease.owner.pid)) return true;
  return false;
}

/** Take the lease file at `path` for `owner`, or refuse (InputError) when a live runner holds it. */
export function acquireLease(path: string, owner: LeaseOwner, durationMs: number, nowMs = Date.now()): Lease {
  const lease: Lease = { owner, acquiredAtMs: nowMs, expiresAtMs: nowMs + durationMs };
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    const temporary = join(dirname(path), `.lease.${owner.token}.tmp`);
    writeFileSync(temporary, `${JSON.stringify(lease, null, 2)}\n`);
    try {
      linkSync(temporary, path);
      return lease;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
    const held = readLease(path);
    if (held === null) continue; // released meanwhile
    if (!leaseIsDead(held, nowMs)) {
      throw new InputError(
        `the sweep in ${dirname(path)} is being run by process ${held.owner.pid} on ${held.owner.host === hostname() ? "this host" : `host ${held.owner.host}`} (lease until ${new Date(held.expiresAtMs).toISOString()}); wait for it to finish, or stop it — its lease then frees itself`,
      );
    }
    const moved = `${path}.dead.${owner.token}`;
    try {
      renameSync(path, moved);
    } catch {
      continue; // someone else took it over first; look again
    }
    const judged = readLease(moved);
    if (judged === null || judged.owner.token !== held.owner.token) {
      // We moved a fresh lease another runner had just written: put it back and refuse.
      try {
        linkSync(moved, path);
      } catch {
        // A third runner holds the path now; its lease stands.
      }
      rmSync(moved, { force: true });
      continue;
    }
    rmSync(moved, { force: true });
  }
  throw new InputError(`could not take the lease ${path}: other runners keep taking it; run one runner per sweep folder`);
}

/** Extend our lease (only if it is still ours). */
export function renewLease(path: string, lease: Lease, durationMs: number, nowMs = Date.now()): Lease {
  const held = readLease(path);
  if (held === null || held.owner.token !== lease.owner.token) {
    throw new Error(`lost the lease ${path}: another runner took it over (ours had expired)`);
  }
  const renewed = { ...lease, expiresAtMs: nowMs + durationMs };
  writeJsonAtomic(path, renewed);
  return renewed;
}

export function releaseLease(path: string, lease: Lease): void {
  const held = readLease(path);
  if (held !== null && held.owner.token === lease.owner.token) rmSync(path, { force: true });
}

export function readLease(path: string): Lease | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  try {
    const lease = JSON.parse(text) as Lease;
    if (typeof lease?.expiresAtMs === "number" && typeof lease.owner?.token === "string") return lease;
  } catch {
    // A torn or foreign file: treat it as expired so it never blocks a sweep.
  }
  return { owner: { host: "", pid: 0, token: "unreadable" }, acquiredAtMs: 0, expiresAtMs: 0 };
}
