import { describe, expect, it } from "vitest";
import { dueReleases, newTriggerState, type NodeTakeovers, type TriggerFilter } from "../../pipeline/release/release-triggers";

const reservation = (name: string, startS: number, nodes: string[], flags = ["MAINT", "IGNORE_JOBS"], active = false) => ({ name, startS, nodes, flags, active });
const maint: TriggerFilter = { drainReason: null, reservationFlag: "maint" };
const drains: TriggerFilter = { drainReason: /^release/, reservationFlag: null };
const drain = (node: string, reason = "release for maintenance") => ({ node, reason });

describe("when --watch releases nodes", () => {
  it("a reservation with the flag once it starts within T, by its start, once, and only on the watched nodes", () => {
    const state = newTriggerState();
    const takeovers: NodeTakeovers = { reservations: [reservation("maint", 1000, ["n1", "n2"]), reservation("later", 5000, ["n3"])], drains: [] };
    expect(dueReleases(takeovers, 0, 600, null, maint, state)).toEqual([]); // starts in 1000 s > T
    const due = dueReleases(takeovers, 400, 600, null, maint, state);
    expect(due).toEqual([{ keys: ["reservation maint@1000"], reason: "reservation maint (MAINT) starts at 1970-01-01T00:16:40.000Z", nodes: ["n1", "n2"], releaseAtS: 1000 }]);
    for (const key of due[0]!.keys) state.handled.add(key);
    expect(dueReleases(takeovers, 401, 600, null, maint, state)).toEqual([]);
    expect(dueReleases(takeovers, 401, 600, new Set(["n2", "n3"]), maint, newTriggerState())[0]?.nodes).toEqual(["n2"]);
    expect(dueReleases(takeovers, 401, 600, new Set(["n9"]), maint, newTriggerState())).toEqual([]);
    // A reservation that has started already has taken its nodes: nothing left to release.
    expect(dueReleases({ reservations: [reservation("now", 100, ["n1"], ["MAINT"], true)], drains: [] }, 200, 600, null, maint, newTriggerState())).toEqual([]);
  });

  it("only the reservations and drains it is told to: a user's reservation or an ordinary drain takes nothing", () => {
    const takeovers: NodeTakeovers = { reservations: [reservation("users", 100, ["n1"], ["DAILY"])], drains: [drain("n2", "bad DIMM, let jobs finish"), drain("n3")] };
    expect(dueReleases(takeovers, 0, 600, null, maint, newTriggerState())).toEqual([]);
    expect(dueReleases(takeovers, 0, 600, null, drains, newTriggerState()).map((d) => d.nodes)).toEqual([["n3"]]);
    expect(dueReleases(takeovers, 0, 600, null, { drainReason: null, reservationFlag: null }, newTriggerState())).toEqual([]);
  });

  it("a drain within T of when it was first seen, nodes seen together released together, again after a new drain", () => {
    const state = newTriggerState();
    const first = dueReleases({ reservations: [], drains: [drain("n3"), drain("n4")] }, 50, 300, null, drains, state);
    expect(first).toEqual([{ keys: ["drain n3@50", "drain n4@50"], reason: 'drain of n3, n4 ("release for maintenance") seen at 1970-01-01T00:00:50.000Z', nodes: ["n3", "n4"], releaseAtS: 350 }]);
    for (const key of first[0]!.keys) state.handled.add(key);
    expect(dueReleases({ reservations: [], drains: [drain("n3"), drain("n4")] }, 60, 300, null, drains, state)).toEqual([]);
    // n3 resumed, then drained again: a new drain.
    expect(dueReleases({ reservations: [], drains: [drain("n4")] }, 70, 300, null, drains, state)).toEqual([]);
    expect(dueReleases({ reservations: [], drains: [drain("n3"), drain("n4")] }, 80, 300, null, drains, state)).toEqual([
      { keys: ["drain n3@80"], reason: 'drain of n3 ("release for maintenance") seen at 1970-01-01T00:01:20.000Z', nodes: ["n3"], releaseAtS: 380 },
    ]);
  });

  it("the releases due in one poll, soonest first, whatever order the scheduler lists them in", () => {
    const both: TriggerFilter = { drainReason: /^release/, reservationFlag: "MAINT" };
    const takeovers: NodeTakeovers = { reservations: [reservation("late", 500, ["n1"]), reservation("soon", 120, ["n2"])], drains: [drain("n3")] };
    expect(dueReleases(takeovers, 100, 600, null, both, newTriggerState()).map((d) => [d.nodes.join(), d.releaseAtS])).toEqual([
      ["n2", 120],
      ["n1", 500],
      ["n3", 700],
    ]);
  });
});
