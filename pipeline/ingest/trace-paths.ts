/**
 * Command-line paths → the trace inputs they denote.
 *
 * - A file is a trace file: canonical CSV, IOR or fio results (`--format auto` tells them
 *   apart by their content when the file is read, detect-trace-format.ts).
 * - A directory, with `--format auto` or `host-logs`, is host logs: a run directory when
 *   some `<dir>/<host>/events.log` exists, else a campaign directory when some
 *   `<dir>/<run>/<host>/events.log` exists (its runs are the subdirectories with host logs).
 * - A directory with `--format canonical`, or with `auto` and no host logs, stands for the
 *   `*.csv` files directly in it; with `auto`, `ior` or `fio` also for its result files
 *   (`*.json`, `*.txt`, `*.out`, `*.log`: what IOR and fio runs leave), each marked as found
 *   in a directory (in `auto`, one that is none of the formats is then skipped with a
 *   warning, as a README would be, not refused).
 * Entries are taken in name order, so the result does not depend on the file system.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../shared/errors";
import { checkInputPath, fileSystemError } from "../shared/path-checks";
import { HOST_EVENT_LOG } from "./host-logs-reader";

import type { TraceFormat } from "./ingest-files";

export interface HostLogRunPath {
  format: "host-logs";
  runDirectory: string;
  runId: string;
  hosts: { host: string; path: string }[];
}

export type TracePath = { format: "file"; path: string; inDirectory: boolean } | HostLogRunPath;

/** The names of result files a directory stands for, besides `*.csv` (`--format auto|ior|fio`). */
const RESULT_FILE = /\.(json|txt|out|log)$/i;

function entries(directory: string) {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    throw fileSystemError(error, directory);
  }
}

function subdirectories(directory: string): string[] {
  return entries(directory)
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function hostLogRun(directory: string): HostLogRunPath | null {
  const hosts = subdirectories(directory)
    .filter((host) => existsSync(join(directory, host, HOST_EVENT_LOG)))
    .map((host) => ({ host, path: join(directory, host, HOST_EVENT_LOG) }));
  return hosts.length === 0 ? null : { format: "host-logs", runDirectory: directory, runId: basename(directory), hosts };
}

function hostDirectoriesWithoutLog(run: HostLogRunPath): string[] {
  const withLog = new Set(run.hosts.map((h) => h.host));
  return subdirectories(run.runDirectory)
    .filter((name) => !withLog.has(name))
    .map((name) => join(run.runDirectory, name));
}

export function resolveTracePaths(paths: readonly string[], format: TraceFormat): { inputs: TracePath[]; warnings: string[] } {
  const inputs: TracePath[] = [];
  const warnings: string[] = [];
  const addRun = (run: HostLogRunPath) => {
    inputs.push(run);
    for (const directory of hostDirectoriesWithoutLog(run)) {
      warnings.push(`${directory} has no ${HOST_EVENT_LOG}: no process of run "${run.runId}" is read from it`);
    }
  };
  for (const path of paths) {
    if (checkInputPath(path, { kind: "file-or-directory", what: "trace CSV file" }) === "file") {
      if (format === "host-logs") {
        throw new InputError(
          `${path} is a file, but --format host-logs reads directories (<run>/<host>/${HOST_EVENT_LOG}); give the run or campaign directory, or use --format canonical for a CSV file`,
        );
      }
      inputs.push({ format: "file", path, inDirectory: false });
      continue;
    }
    if (format === "auto" || format === "host-logs") {
      const run = hostLogRun(path);
      if (run !== null) {
        addRun(run);
        continue;
      }
      const runs = subdirectories(path)
        .map((name) => hostLogRun(join(path, name)))
        .filter((r): r is HostLogRunPath => r !== null);
      if (runs.length > 0) {
        runs.forEach(addRun);
        continue;
      }
      if (format === "host-logs") {
        throw new InputError(
          `${path} holds no host logs: expected ${join(path, "<host>", HOST_EVENT_LOG)} (a run directory) or ${join(path, "<run>", "<host>", HOST_EVENT_LOG)} (a campaign directory)`,
        );
      }
    }
    const wanted = (name: string) =>
      (format !== "ior" && format !== "fio" && format !== "release-log" && name.toLowerCase().endsWith(".csv")) || (format !== "canonical" && RESULT_FILE.test(name));
    const files = entries(path)
      .filter((entry) => entry.isFile() && wanted(entry.name))
      .map((entry) => join(path, entry.name))
      .sort();
    if (files.length === 0) {
      const what =
        format === "canonical"
          ? ".csv files"
          : format === "auto"
            ? `.csv files nor host logs (<run>/<host>/${HOST_EVENT_LOG}) nor IOR or fio result files (.json, .txt, .out, .log)`
            : `${format === "ior" ? "IOR result" : format === "fio" ? "fio result" : "release log"} files (.json, .txt, .out, .log)`;
      throw new InputError(`${path} contains no ${what}; give the trace files themselves or the directory that holds them`);
    }
    for (const file of files) inputs.push({ format: "file", path: file, inDirectory: true });
  }
  return { inputs, warnings };
}
