/**
 * The Slurm adapter's readings of what Slurm prints, on records of Slurm 22.05.8
 * (fixtures/scontrol: `scontrol -o show job` and `show reservation` on the cluster of
 * test/cluster/slurm.sh, paths replaced), without a scheduler.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jobStateOf, parseDrains, parseReservationLine, parseScontrolJobs, recordOf, slurmEnvironment } from "../../pipeline/release/slurm";

const record = (name: string) => readFileSync(join(__dirname, "fixtures/scontrol", `${name}.txt`), "utf8");

describe("a job's state from scontrol -o show job", () => {
  it("takes exactly the record of the job asked: an array task's, a heterogeneous job's leader's", () => {
    expect(recordOf("17_2", parseScontrolJobs(record("array-task")))).toMatchObject({ jobId: "17", arrayTaskId: "2", state: "RUNNING" });
    expect(recordOf("20", parseScontrolJobs(record("het")))).toMatchObject({ jobId: "20", hetJobOffset: "0" });
    expect(recordOf("16", parseScontrolJobs(record("completed")))).toMatchObject({ jobId: "16", state: "COMPLETED", exitCode: "0:0" });
  });

  it("refuses anything but exactly one record: a bare array id lists every task", () => {
    // `scontrol show job 17` (the array's id) prints both tasks: reading the first as "the job" was the bug.
    expect(() => recordOf("17", parseScontrolJobs(record("array")))).toThrow("scontrol show job 17 gave 2 record(s) (17, 18), not exactly the one of job 17: its state cannot be known");
    expect(() => recordOf("16", [])).toThrow(/gave 0 record\(s\) \(none\)/);
    expect(() => recordOf("16_1", parseScontrolJobs(record("completed")))).toThrow(/not exactly the one of job 16_1/);
  });

  it("says saved only for an end with exit 0, and how every other end happened", () => {
    const completed = parseScontrolJobs(record("completed"))[0]!;
    expect(jobStateOf(completed)).toEqual({ ended: true, saved: true, requeued: false, how: "COMPLETED, exit 0" });
    // A batch script that does not trap USR2 dies of it: FAILED, ExitCode=0:12 (seen on Slurm 22.05.8).
    expect(jobStateOf({ ...completed, state: "FAILED", exitCode: "0:12" })).toEqual({
      ended: true,
      saved: false,
      requeued: false,
      how: "FAILED, killed by signal 12 (USR2): its batch script did not trap the checkpoint signal, or died of it",
    });
    expect(jobStateOf({ ...completed, state: "FAILED", exitCode: "3:0" })).toMatchObject({ saved: false, how: "FAILED, exit 3" });
    expect(jobStateOf({ ...completed, state: "CANCELLED", exitCode: "0:15" })).toMatchObject({ ended: true, saved: false });
    // Suspended is not an end: the executor keeps waiting (the issue: SUSPENDED counted as saved).
    for (const state of ["RUNNING", "COMPLETING", "SUSPENDED", "CONFIGURING"]) expect(jobStateOf({ ...completed, state })).toEqual({ ended: false, state });
    expect(jobStateOf(parseScontrolJobs(record("requeued"))[0]!)).toEqual({ ended: true, saved: true, requeued: true, how: "PENDING, Restarts=1" });
    expect(() => jobStateOf({ ...completed, state: "TELEPORTED" })).toThrow(/in the state "TELEPORTED", which the hook does not know/);
  });
});

describe("what --watch reads", () => {
  it("a reservation line printed with SLURM_TIME_FORMAT=%s: its start in epoch s, its nodes and flags", () => {
    const line = record("reservation").trim();
    expect(parseReservationLine(line)).toEqual({ name: "rec-maint", startS: 1795838100, nodes: ["n1", "n2"], flags: ["MAINT", "IGNORE_JOBS", "SPEC_NODES"], active: false });
    expect(parseReservationLine(line.replace("State=INACTIVE", "State=ACTIVE"))?.active).toBe(true);
    // Under TZ=UTC the ISO form is UTC.
    expect(parseReservationLine(line.replace("StartTime=1795838100", "StartTime=2026-11-25T21:23:51"))?.startS).toBe(Date.UTC(2026, 10, 25, 21, 23, 51) / 1000);
    expect(parseReservationLine("No reservations in the system")).toBeNull();
    // SLURM_TIME_FORMAT=relative prints "04:30:51": refused, never read as another day.
    expect(() => parseReservationLine(line.replace("StartTime=1795838100", "StartTime=04:30:51"))).toThrow(/reservation rec-maint has no readable StartTime \(04:30:51\)/);
  });

  it("the draining nodes and their reasons (sinfo -h -N -o %N|%T|%E, a reason may hold '|')", () => {
    // Printed by Slurm 22.05.8 after `scontrol update nodename=n4 state=drain reason="maintenance: disk swap | ticket 42"`.
    const text = "n1|allocated|none\nn2|idle|none\nn3|mixed+drain|ckpt-release\nn4|draining|maintenance: disk swap | ticket 42\nn4|draining|maintenance: disk swap | ticket 42\nn5|drained|old\n";
    expect(parseDrains(text)).toEqual([
      { node: "n3", reason: "ckpt-release" },
      { node: "n4", reason: "maintenance: disk swap | ticket 42" },
    ]);
  });
});

describe("the environment Slurm's commands run in", () => {
  it("drops Slurm's own variables (they change what the commands print or do), keeps SLURM_CONF, fixes the time format", () => {
    const env = slurmEnvironment({ PATH: "/usr/bin", SLURM_CONF: "/etc/slurm/other.conf", SQUEUE_FORMAT: "%i", SCANCEL_INTERACTIVE: "1", SLURM_CLUSTERS: "other", SLURM_TIME_FORMAT: "relative", SINFO_SORT: "-N" });
    expect(env).toEqual({ PATH: "/usr/bin", SLURM_CONF: "/etc/slurm/other.conf", SLURM_TIME_FORMAT: "%s", TZ: "UTC", LC_ALL: "C" });
  });
});
