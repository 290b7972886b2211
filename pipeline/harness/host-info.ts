/**
 * What a run folder records about the machine that ran it, and about the file system the
 * images went to (its type and mount options: whether an NFS target is mounted `sync`
 * changes what is measured, docs/science.md §3.1).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { arch, cpus, hostname, release, totalmem, type as osType } from "node:os";

export interface TargetFileSystem {
  mountPoint: string;
  type: string;
  options: string[];
  device: string;
}

export interface HostInfo {
  hostname: string;
  os: string;
  arch: string;
  cpuModel: string;
  cpuCount: number;
  memoryMb: number;
  node: string;
  /** The file system holding the target directory (Linux; null elsewhere). */
  target: TargetFileSystem | null;
}

export function hostInfo(targetDir: string): HostInfo {
  const cpu = cpus();
  return {
    hostname: hostname(),
    os: `${osType()} ${release()}`,
    arch: arch(),
    cpuModel: cpu[0]?.model ?? "unknown",
    cpuCount: cpu.length,
    memoryMb: Math.round(totalmem() / 1e6),
    node: process.version,
    target: targetFileSystem(targetDir),
  };
}

/** The mount (longest mount point that is a prefix of the directory's real path). */
export function targetFileSystem(dir: string, mountsText?: string): TargetFileSystem | null {
  let text = mountsText;
  let path = dir;
  try {
    text ??= readFileSync("/proc/mounts", "utf8");
    // The folder may not exist yet (the first run creates it): its nearest existing parent
    // is on the same file system.
    if (mountsText === undefined) path = realpathSync(nearestExisting(resolve(dir)));
  } catch {
    return null;
  }
  let best: TargetFileSystem | null = null;
  for (const line of text.split("\n")) {
    const [device, rawMountPoint, type, options] = line.split(" ");
    if (!device || !rawMountPoint || !type || options === undefined) continue;
    const mountPoint = rawMountPoint.replace(/\\040/g, " ");
    const inside = mountPoint === "/" || path === mountPoint || path.startsWith(`${mountPoint}/`);
    if (inside && (best === null || mountPoint.length >= best.mountPoint.length)) {
      best = { mountPoint, type, options: options.split(","), device };
    }
  }
  return best;
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}
