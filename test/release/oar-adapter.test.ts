/**
 * The OAR adapter's readings, on what OAR 2.5.9 (Debian 12's oar-user) printed on the
 * cluster of test/cluster/oar.sh (fixtures/oarstat, paths replaced): a job on oarnode1
 * (1), a job on both nodes (2), an interactive job (3), a two-task array waiting (4, 5);
 * `oarstat -J`, the same with `--sql "state = 'Running'"`, and `oarstat -fJ -j 1` after job
 * 1 checkpointed on the signal and exited 0.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { oarJobState, oarRunningJobs, parseOarstat, type OarJob } from "../../pipeline/release/oar";

const fixture = (name: string) => readFileSync(join(__dirname, "fixtures/oarstat", `oarstat-${name}.json`), "utf8");

describe("oarstat -J of OAR 2.5", () => {
  it("every job with its state, owner, start and nodes; waiting ones have neither", () => {
    const jobs = parseOarstat(fixture("all"));
    expect(jobs.map((j) => [j.jobId, j.state, j.nodes, j.jobType, j.startTimeS === null])).toEqual([
      // In job order (JSON object keys that are numbers come out in order).
      ["1", "Running", ["oarnode1"], "PASSIVE", false],
      ["2", "Running", ["oarnode1", "oarnode2"], "PASSIVE", false],
      ["3", "Running", ["oarnode2"], "INTERACTIVE", false],
      ["4", "Waiting", [], "PASSIVE", true],
      ["5", "Waiting", [], "PASSIVE", true],
    ]);
    // The running ones only, as the hook asks (--sql "state = 'Running'").
    expect(parseOarstat(fixture("running")).map((j) => j.jobId)).toEqual(["1", "2", "3"]);
    expect(parseOarstat("")).toEqual([]);
  });

  it("the running jobs of the released nodes; an interactive job cannot be signalled nor resubmitted", () => {
    const jobs = oarRunningJobs(parseOarstat(fixture("all")), ["oarnode2"], null, (owner) => (owner === "ckptuser" ? 1001 : null));
    expect(jobs.map((j) => [j.jobId, j.nodes, j.uid, j.sizeMb, j.sizeSource, j.cannotSignal, j.cannotRequeue])).toEqual([
      ["2", ["oarnode1", "oarnode2"], 1001, null, "unknown", null, null],
      ["3", ["oarnode2"], 1001, null, "unknown", "an interactive job (oarsub -I): OAR signals only batch jobs", "an interactive job cannot be resubmitted"],
    ]);
    expect(oarRunningJobs(parseOarstat(fixture("all")), ["oarnode1"], 500, () => 1001).map((j) => [j.jobId, j.sizeMb, j.sizeSource])).toEqual([
      ["1", 500, "assumed"],
      ["2", 500, "assumed"],
    ]);
  });

  it("how a signalled job ended, from its state and exit code (a wait status)", () => {
    const [terminated] = parseOarstat(fixture("full-terminated")) as [OarJob];
    expect(oarJobState(terminated)).toEqual({ ended: true, saved: true, requeued: false, how: "Terminated, exit 0" });
    // exit 99 (99 << 8: seen on OAR 2.5.9 for a job whose trap exits 99) asks OAR to resubmit an idempotent job: saved.
    expect(oarJobState({ ...terminated, exitCode: 25344 })).toMatchObject({ saved: true, how: "Terminated, exit 99" });
    // A script that does not trap the signal dies of it: Terminated, exit_code 12 (seen on OAR 2.5.9).
    expect(oarJobState({ ...terminated, exitCode: 12 })).toEqual({ ended: true, saved: false, requeued: false, how: "Terminated, killed by signal 12: its script did not trap the checkpoint signal, or died of it" });
    expect(oarJobState({ ...terminated, exitCode: 256 })).toMatchObject({ saved: false, how: "Terminated, exit 1" });
    expect(oarJobState({ ...terminated, state: "Error", exitCode: null })).toMatchObject({ saved: false, how: "Error, no exit code (deleted, or its launch failed)" });
    expect(oarJobState({ ...terminated, state: "Finishing", exitCode: null })).toEqual({ ended: false, state: "Finishing" });
    expect(oarJobState({ ...terminated, state: "Finishing", exitCode: 0 })).toMatchObject({ ended: true, saved: true });
    expect(() => oarJobState({ ...terminated, state: "Waiting" })).toThrow(/in the state "Waiting", not one a signalled job goes through/);
  });

  it("refuses what is not OAR 2.5's shape", () => {
    expect(() => parseOarstat("[1, 2]")).toThrow(/not an object of jobs/);
    expect(() => parseOarstat('{"7": {"state": 3}}')).toThrow(/job 7: state is 3, not a string/);
    expect(() => parseOarstat('{"7": {"state": "Running", "assigned_network_address": "n1"}}')).toThrow(/job 7: assigned_network_address is not a list/);
    expect(() => parseOarstat("DB connection error, exiting.")).toThrow(/printed no JSON/);
  });
});
