import { describe, expect, it } from "vitest";
import { dueReleases, newTriggerState, type NodeTakeovers } from "../../pipeline/release/release-triggers";
import { parseReservationLine } from "../../pipeline/release/slurm";

const reservation = (name: string, startS: number, nodes: string[], active = false) => ({ name, startS, nodes, active });

describe("when --watch releases nodes", () => {
  it("a reservation once it starts within T, by its start, once, and only on the watched nodes", () => {
    const state = newTriggerState();
    const takeovers: NodeTakeovers = { reservations: [reservation("maint", 1000, ["n1", "n2"]), reservation("later", 5000, ["n3"])], draining: [] };
    expect(dueReleases(takeovers, 0, 600, null, state)).toEqual([]); // starts in 1000 s > T
    const due = dueReleases(takeovers, 400, 600, null, state);
    expect(due).toEqual([{ keys: ["reservation maint@1000"], reason: "reservation maint starts at 1970-01-01T00:16:40.000Z", nodes: ["n1", "n2"], releaseAtS: 1000 }]);
    for (const key of due[0]!.keys) state.handled.add(key);
    expect(dueReleases(takeovers, 401, 600, null, state)).toEqual([]);
    expect(dueReleases(takeovers, 401, 600, new Set(["n2", "n3"]), newTriggerState())[0]?.nodes).toEqual(["n2"]);
    expect(dueReleases(takeovers, 401, 600, new Set(["n9"]), newTriggerState())).toEqual([]);
    // A reservation that has started already has taken its nodes: nothing left to release.
    expect(dueReleases({ reservations: [reservation("now", 100, ["n1"], true)], draining: [] }, 200, 600, null, newTriggerState())).toEqual([]);
  });

  it("a drain within T of when it was first seen, nodes seen together released together, again after a new drain", () => {
    const state = newTriggerState();
    const first = dueReleases({ reservations: [], draining: ["n3", "n4"] }, 50, 300, null, state);
    expect(first).toEqual([{ keys: ["drain n3@50", "drain n4@50"], reason: "drain of n3, n4 seen at 1970-01-01T00:00:50.000Z", nodes: ["n3", "n4"], releaseAtS: 350 }]);
    for (const key of first[0]!.keys) state.handled.add(key);
    expect(dueReleases({ reservations: [], draining: ["n3", "n4"] }, 60, 300, null, state)).toEqual([]);
    // n3 resumed, then drained again: a new drain.
    expect(dueReleases({ reservations: [], draining: ["n4"] }, 70, 300, null, state)).toEqual([]);
    expect(dueReleases({ reservations: [], draining: ["n3", "n4"] }, 80, 300, null, state)).toEqual([{ keys: ["drain n3@80"], reason: "drain of n3 seen at 1970-01-01T00:01:20.000Z", nodes: ["n3"], releaseAtS: 380 }]);
  });
});

describe("scontrol -o show reservation", () => {
  // A line printed by Slurm 22.05.8 (test/cluster/slurm.sh) for
  // scontrol create reservation reservationname=maint starttime=now+600 duration=10 nodes=n1,n2 flags=maint,ignore_jobs users=root
  const line =
    "ReservationName=maint StartTime=2026-11-25T21:23:51 EndTime=2026-11-25T21:33:51 Duration=00:10:00 Nodes=n[1-2] NodeCnt=2 CoreCnt=16 Features=(null) PartitionName=(null) Flags=MAINT,IGNORE_JOBS,SPEC_NODES TRES=cpu=16 Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)";

  it("gives the name, the start (local time: the tests run in UTC), the nodes and whether it has started", () => {
    expect(parseReservationLine(line)).toEqual({ name: "maint", startS: Date.UTC(2026, 10, 25, 21, 23, 51) / 1000, nodes: ["n1", "n2"], active: false });
    expect(parseReservationLine(line.replace("State=INACTIVE", "State=ACTIVE"))?.active).toBe(true);
    expect(parseReservationLine("No reservations in the system")).toBeNull();
    expect(() => parseReservationLine("ReservationName=x StartTime=soon Nodes=n1")).toThrow(/reservation x has no readable StartTime \(soon\)/);
  });
});
