/**
 * What the hook writes and holds as root: its log (appended and synced line by line,
 * created exclusively, never through a link, never another user's file), its lock (one
 * hook at a time, the kernel's, gone with the process) and its signal (one a job can trap).
 */
import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkpointSignal } from "../../pipeline/release/checkpoint-signal";
import { takeReleaseLock } from "../../pipeline/release/release-lock";
import { openReleaseLog } from "../../pipeline/release/release-log";

let dir = "";
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "ckpt-release-files-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the release log", () => {
  it("appends one JSON line per record, each on disk when append returns, runs after runs", () => {
    const path = join(dir, "release.jsonl");
    const log = openReleaseLog(path);
    log.append({ type: "plan", release: 1 });
    // Read back before close: the line is there already (a hook killed now leaves it).
    expect(readFileSync(path, "utf8")).toBe('{"type":"plan","release":1}\n');
    log.append({ type: "event", release: 1, jobId: "12_3", event: "signalled" });
    log.close();
    const again = openReleaseLog(path);
    again.append({ type: "plan", release: 1 });
    again.close();
    expect(readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line).type)).toEqual(["plan", "event", "plan"]);
  });

  it("is never written through a symbolic link, nor into another user's file", () => {
    writeFileSync(join(dir, "target"), "precious\n");
    symlinkSync(join(dir, "target"), join(dir, "link.jsonl"));
    expect(() => openReleaseLog(join(dir, "link.jsonl"))).toThrow(`--log ${join(dir, "link.jsonl")} is a symbolic link: the hook does not write through links; give the log file itself`);
    expect(readFileSync(join(dir, "target"), "utf8")).toBe("precious\n");
    writeFileSync(join(dir, "theirs.jsonl"), "");
    chownSync(join(dir, "theirs.jsonl"), 4242, 4242);
    expect(() => openReleaseLog(join(dir, "theirs.jsonl"))).toThrow(/owned by uid 4242, not by the user running the hook \(uid 0\)/);
    expect(() => openReleaseLog(join(dir, "missing/x.jsonl"))).toThrow(/--log: no such file or directory/);
  });
});

describe("the release lock", () => {
  it("lets one hook act at a time, says who holds it, and is free again when released", () => {
    const path = join(dir, "release.lock");
    const first = takeReleaseLock(path);
    expect(() => takeReleaseLock(path)).toThrow(`another release hook holds the lock ${path} (pid ${process.pid}): two hooks would signal and requeue the same jobs; wait for it to end`);
    // Another process sees it held too (flock(1) on the same file, without waiting).
    expect(() => execFileSync("flock", ["--nonblock", path, "true"], { stdio: "ignore" })).toThrow();
    first.release();
    takeReleaseLock(path).release();
  });

  it("is released when its process ends, however it ends", () => {
    const path = join(dir, "killed.lock");
    // A hook that takes the lock and is killed before releasing it.
    const script = `require(${JSON.stringify(join(__dirname, "../../pipeline/release/release-lock.ts"))}).takeReleaseLock(${JSON.stringify(path)}); process.kill(process.pid, "SIGKILL");`;
    expect(() => execFileSync(process.execPath, ["--import", "tsx", "-e", script], { stdio: "ignore" })).toThrow();
    // It did take it: its pid is in the file.
    expect(readFileSync(path, "utf8")).toMatch(/^\d+\n$/);
    expect(readFileSync(path, "utf8")).not.toBe(`${process.pid}\n`);
    takeReleaseLock(path).release();
  });

  it("is not taken through a link, nor when another user's", () => {
    symlinkSync(join(dir, "target"), join(dir, "link.lock"));
    expect(() => takeReleaseLock(join(dir, "link.lock"))).toThrow(/is a symbolic link: the hook does not follow links/);
    writeFileSync(join(dir, "theirs.lock"), "");
    chownSync(join(dir, "theirs.lock"), 4242, 4242);
    expect(() => takeReleaseLock(join(dir, "theirs.lock"))).toThrow(/owned by uid 4242, not by the user running the hook/);
  });
});

describe("the checkpoint signal", () => {
  it("is one a job can trap, by name or number, with or without SIG", () => {
    expect(["USR2", "SIGUSR2", "usr2", "12"].map(checkpointSignal)).toEqual(["USR2", "USR2", "USR2", "USR2"]);
    expect(checkpointSignal("TERM")).toBe("TERM");
    expect(() => checkpointSignal("KILL")).toThrow("--signal KILL: SIGKILL cannot be trapped, so no job could checkpoint on it (it would end the job unsaved); give the signal the jobs trap, e.g. USR2");
    expect(() => checkpointSignal("9")).toThrow(/SIGKILL cannot be trapped/);
    expect(() => checkpointSignal("STOP")).toThrow(/SIGSTOP cannot be trapped.*would freeze the job/);
    expect(() => checkpointSignal("USR3")).toThrow(/--signal USR3: not a signal name or number this system knows/);
  });
});
