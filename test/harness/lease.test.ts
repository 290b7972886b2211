import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLease, currentOwner, leaseIsDead, readLease, releaseLease, renewLease } from "../../pipeline/harness/lease";
import { temporaryFolder } from "./temp-dir";

const dir = temporaryFolder("lease");

/** A pid that existed and has exited (a finished child). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("leases", () => {
  it("give a folder to one runner; a second live one is refused with who holds it", () => {
    const path = join(dir, "a.json");
    const first = acquireLease(path, currentOwner(), 30_000);
    expect(() => acquireLease(path, currentOwner(), 30_000)).toThrow(/being run by process \d+ on this host \(lease until/);
    const renewed = renewLease(path, first, 60_000);
    expect(renewed.expiresAtMs).toBeGreaterThan(first.expiresAtMs);
    releaseLease(path, renewed);
    expect(existsSync(path)).toBe(false);
    releaseLease(path, acquireLease(path, currentOwner(), 30_000));
  });

  it("free themselves when they expire, or at once when their owner on this host is gone", () => {
    const now = Date.now();
    const owner = { host: hostname(), pid: process.pid, token: "t" };
    expect(leaseIsDead({ owner, acquiredAtMs: now, expiresAtMs: now + 10_000 }, now)).toBe(false);
    expect(leaseIsDead({ owner, acquiredAtMs: now, expiresAtMs: now - 1 }, now)).toBe(true);
    expect(leaseIsDead({ owner: { ...owner, pid: deadPid() }, acquiredAtMs: now, expiresAtMs: now + 10_000 }, now)).toBe(true);
    // Another host's live lease is only freed by its expiry.
    expect(leaseIsDead({ owner: { ...owner, host: "elsewhere", pid: deadPid() }, acquiredAtMs: now, expiresAtMs: now + 10_000 }, now)).toBe(false);
  });

  it("are taken over from a killed runner without hand cleaning", () => {
    const path = join(dir, "b.json");
    const stale = { owner: { host: hostname(), pid: deadPid(), token: "killed" }, acquiredAtMs: Date.now(), expiresAtMs: Date.now() + 60_000 };
    writeFileSync(path, JSON.stringify(stale));
    const lease = acquireLease(path, currentOwner(), 30_000);
    expect(readLease(path)!.owner.token).toBe(lease.owner.token);
    // A torn, unreadable lease never blocks a sweep either.
    writeFileSync(path, "{ torn");
    expect(acquireLease(path, currentOwner(), 30_000).owner.pid).toBe(process.pid);
  });

  it("cannot be renewed once another runner took it over", () => {
    const path = join(dir, "c.json");
    const mine = acquireLease(path, currentOwner(), 30_000);
    writeFileSync(path, JSON.stringify({ ...mine, owner: { ...mine.owner, token: "other" } }));
    expect(() => renewLease(path, mine, 30_000)).toThrow(/lost the lease/);
  });
});
