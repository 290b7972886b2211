/**
 * Sidecars are written by users and read by the hook as root: each way a user's file could
 * hang the hook, show it a file it should not read, or stop the release is a warning for
 * that job alone. The tests run as root (they chown files to other users).
 */
import { execFileSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningJob } from "../../pipeline/release/release-plan";
import { applySidecar, SIDECAR_MAX_BYTES } from "../../pipeline/release/sidecar";

let dir = "";
const NOW = 1_800_000_000;
const OWNER = 4242;
const job = (sidecarId: string): RunningJob => ({
  jobId: sidecarId,
  sidecarId,
  name: null,
  user: "alice",
  uid: OWNER,
  nodes: ["n1"],
  startedAtS: NOW - 600,
  lastCheckpointAtS: null,
  sizeMb: 300,
  sizeSource: "requested",
  cannotSignal: null,
  cannotRequeue: null,
});
const write = (name: string, content: string, uid = OWNER) => {
  writeFileSync(join(dir, name), content);
  chownSync(join(dir, name), uid, uid);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ckpt-sidecars-"));
  // A root-only secret a user points a link at.
  mkdirSync(join(dir, "private"), { mode: 0o700 });
  writeFileSync(join(dir, "private/secret"), "root:$6$very-secret-hash:19000:0:99999:7:::\n", { mode: 0o600 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a job's sidecar", () => {
  it("gives the size and last checkpoint the job wrote", () => {
    write("101.json", JSON.stringify({ sizeMb: 812.5, lastCheckpointAt: NOW - 30 }));
    expect(applySidecar(job("101"), dir, NOW)).toEqual({ job: { ...job("101"), sizeMb: 812.5, sizeSource: "sidecar", lastCheckpointAtS: NOW - 30 }, warning: null });
    expect(applySidecar(job("999"), dir, NOW)).toEqual({ job: job("999"), warning: null });
  });

  it("is not followed through a symbolic link, and nothing of the linked file is shown", () => {
    symlinkSync(join(dir, "private/secret"), join(dir, "102.json"));
    const result = applySidecar(job("102"), dir, NOW);
    expect(result.job).toEqual(job("102"));
    expect(result.warning).toBe(`job 102: its sidecar ${join(dir, "102.json")} is a symbolic link (not followed): ignored, the scheduler's values are used`);
    expect(result.warning).not.toMatch(/secret|root:/);
  });

  it("does not hang the hook when it is a FIFO", () => {
    execFileSync("mkfifo", [join(dir, "103.json")]);
    chownSync(join(dir, "103.json"), OWNER, OWNER);
    expect(applySidecar(job("103"), dir, NOW).warning).toMatch(/is not a regular file \(a FIFO\): ignored/);
  });

  it("is read only when it is the job's own user's", () => {
    write("104.json", JSON.stringify({ sizeMb: 1 }), 4343);
    expect(applySidecar(job("104"), dir, NOW)).toEqual({ job: job("104"), warning: expect.stringMatching(/is owned by uid 4343, not by the job's user alice \(uid 4242\): ignored/) });
    expect(applySidecar({ ...job("104"), uid: null }, dir, NOW).warning).toMatch(/cannot be checked: the scheduler does not say who owns the job/);
  });

  it("half-written, too large, or with impossible values: a warning for that job, nothing of its content echoed", () => {
    write("105.json", '{"sizeMb": 81');
    expect(applySidecar(job("105"), dir, NOW).warning).toBe(`job 105: its sidecar ${join(dir, "105.json")} is not valid JSON (13 bytes: being written, or not a sidecar); expected {"sizeMb": …, "lastCheckpointAt": …}: ignored, the scheduler's values are used`);
    write("106.json", " ".repeat(SIDECAR_MAX_BYTES + 1));
    expect(applySidecar(job("106"), dir, NOW).warning).toMatch(/is 65537 bytes, more than a sidecar's 65536: ignored/);
    write("107.json", JSON.stringify({ sizeMb: "root:secret" }));
    expect(applySidecar(job("107"), dir, NOW).warning).toMatch(/has sizeMb of type string, not a number of MB > 0: ignored/);
    write("108.json", JSON.stringify({ sizeMb: 100, lastCheckpointAt: NOW + 86_400 }));
    expect(applySidecar(job("108"), dir, NOW)).toMatchObject({ job: job("108"), warning: expect.stringMatching(/has lastCheckpointAt 2027-01-16T08:00:00.000Z, in the future: ignored/) });
    write("109.json", JSON.stringify([1, 2]));
    expect(applySidecar(job("109"), dir, NOW).warning).toMatch(/is JSON but not an object/);
  });

  it("is named by the job's own number only", () => {
    expect(applySidecar({ ...job("110"), sidecarId: "../private/secret" }, dir, NOW).warning).toMatch(/has no job number to be named by/);
  });
});
