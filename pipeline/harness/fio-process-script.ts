/**
 * The shell script the `fio` backend runs for one writer of a run, on its node (here, over
 * ssh, or as a Slurm step): one fio job that writes the writer's checkpoint size into its own
 * folder, started at the harness's barrier, timed by fio itself.
 *
 * Before the barrier it only prepares the folder and checks that fio is there; after `go`
 * it runs
 *
 *     fio --name=ckpt --filename=<dir>/image --rw=write --bs=<bytes> --size=<bytes>
 *         --ioengine=psync --fallocate=none --create_on_open=1 [--end_fsync=1 | --fsync_on_close=1 | --sync=dsync]
 *         [--direct=1] --output-format=json --output=<dir>/fio.json
 *
 * and reports, on the line protocol (protocol-line.ts), fio's own numbers: `bytes` is the
 * job's `write.io_bytes`; the end is fio's report time (`timestamp_ms`, taken once its one
 * job has ended) and the start that minus the job's `write.runtime` (which includes the
 * end_fsync). So the duration is fio's, without fio's own start-up (a few hundred ms of
 * forking and setting up before the first write), which a clock around the command would
 * count; the start is placed within fio's teardown (~10 ms) of where the job began. fio
 * reports milliseconds: a checkpoint shorter than a second is timed to ±1 ms.
 *
 * The JSON is read with awk from fio's own layout (one `"key" : value` per line, the
 * `"write"` object after `"read"`), which fio 3.x prints alike; a job that ended with an
 * error reports its error as the exit status. A watchdog kills fio after the run's timeout;
 * the exit trap removes the folder unless the sweep keeps its files (the JSON then stays
 * next to the image).
 */
import { scriptPreamble, watchdogLines } from "./process-script";
import { shellQuote } from "./shell-quote";
import type { SyncMode } from "./sweep-spec";

export interface FioScriptInput {
  dir: string;
  node: string;
  index: number;
  runId: string;
  sizeMb: number;
  /** "fsync": end_fsync (or fsync_on_close); "dsync": O_DSYNC writes; "none": the page cache. */
  sync: SyncMode;
  fsyncOnClose: boolean;
  direct: boolean;
  blockSizeKib: number;
  timeoutS: number;
  keepFiles: boolean;
}

/**
 * The file fio writes and its block: fio writes whole blocks only (it rounds `size` down to
 * a multiple of `bs`), so the block is the largest one of at most `blockSizeKib` KiB that
 * divides the checkpoint's bytes — 1 MB blocks for a size in whole MB — and the size is
 * exact. With `direct`, blocks must stay multiples of 4 KiB: the size is rounded up to whole
 * blocks of `blockSizeKib` (the trace's ckpt_mb says what was written). Without a divisor
 * within 4 times the fewest blocks, the size is rounded up to whole 4 KiB pages first, then
 * to whole blocks.
 */
export function fioBlocks(sizeMb: number, blockSizeKib: number, direct: boolean): { sizeBytes: number; blockBytes: number } {
  const maxBlock = blockSizeKib * 1024;
  const roundUp = (bytes: number, unit: number) => Math.ceil(bytes / unit) * unit;
  const exact = Math.round(sizeMb * 1e6);
  if (direct) return { sizeBytes: roundUp(exact, maxBlock), blockBytes: maxBlock };
  for (const sizeBytes of [exact, roundUp(exact, 4096)]) {
    const fewest = Math.ceil(sizeBytes / maxBlock);
    for (let blocks = fewest; blocks <= 4 * fewest; blocks++) if (sizeBytes % blocks === 0) return { sizeBytes, blockBytes: sizeBytes / blocks };
  }
  return { sizeBytes: roundUp(exact, maxBlock), blockBytes: maxBlock };
}

/** fio's options for one writer (exported for the tests). */
export function fioArguments(input: Pick<FioScriptInput, "dir" | "sizeMb" | "sync" | "fsyncOnClose" | "direct" | "blockSizeKib">): string[] {
  const sync = input.sync === "fsync" ? [input.fsyncOnClose ? "--fsync_on_close=1" : "--end_fsync=1"] : input.sync === "dsync" ? ["--sync=dsync"] : [];
  const { sizeBytes, blockBytes } = fioBlocks(input.sizeMb, input.blockSizeKib, input.direct);
  return [
    "fio",
    "--name=ckpt",
    // fio reads ':' in a file name as a separator of several files.
    `--filename=${input.dir.replaceAll(":", "\\:")}/image`,
    "--rw=write",
    `--bs=${blockBytes}`,
    `--size=${sizeBytes}`,
    // psync: one write() at a time, as a checkpointer writes its image. A checkpoint writes
    // a new file: created when the job opens it for writing, never preallocated nor laid out
    // beforehand (fio writes the whole file once first in some set-ups, --client mode among them).
    "--ioengine=psync",
    "--fallocate=none",
    "--create_on_open=1",
    ...sync,
    ...(input.direct ? ["--direct=1"] : []),
    "--output-format=json",
    `--output=${input.dir}/fio.json`,
  ];
}

/** awk over fio's JSON: the report time, and the write object's io_bytes and runtime, and the job's error. */
const READ_FIO_JSON = [
  '/"timestamp_ms" :/ { gsub(/[^0-9]/, "", $3); ts = $3 }',
  '/"error" :/ && error == "" { gsub(/[^0-9]/, "", $3); error = $3 }',
  '/^ *"write" : \\{/ { inwrite = 1 }',
  '/^ *"trim" : \\{/ { inwrite = 0 }',
  'inwrite && /"io_bytes" :/ && bytes == "" { gsub(/[^0-9]/, "", $3); bytes = $3 }',
  'inwrite && /"runtime" :/ && runtime == "" { gsub(/[^0-9]/, "", $3); runtime = $3 }',
  'END { if (ts == "" || bytes == "" || runtime == "") exit 1; printf "ts_ms=%s bytes=%s runtime_ms=%s error=%s\\n", ts, bytes, runtime, (error == "" ? 0 : error) }',
].join("\n");

export function fioProcessScript(input: FioScriptInput): string {
  const fio = fioArguments(input).map(shellQuote).join(" ");
  const lines = [
    ...scriptPreamble(`fio writer ${input.index} of run ${input.runId} on ${input.node}`, input.dir, ["fio_pid"], input.keepFiles),
    'command -v fio >/dev/null 2>&1 || { say fail "fio is not installed on $(hostname) (Debian: apt-get install fio)"; exit 74; }',
    'rm -rf -- "$dir" && mkdir -p -- "$dir" || { say fail "cannot create the folder $dir"; exit 70; }',
    "say ready",
    'read -r go || { say fail "no go from the harness (it stopped?)"; exit 73; }',
    `${fio} 1>&2 &`,
    "fio_pid=$!",
    ...watchdogLines("fio_pid", input.timeoutS),
    'wait "$fio_pid"',
    "rc=$?",
    "pid=$fio_pid",
    "fio_pid=''",
    '[ "$rc" = 0 ] || { say result "rc=$rc" start=0 end=0 bytes=0 "pid=$pid"; exit 0; }',
    `numbers=$(awk ${shellQuote(READ_FIO_JSON)} "$dir/fio.json") || { say fail "fio wrote no readable JSON report in $dir/fio.json"; exit 75; }`,
    'eval "$numbers"',
    '[ "$error" = 0 ] || rc=$error',
    // Seconds since the epoch, to the millisecond fio reports.
    'start=$(awk "BEGIN { printf \\"%.3f\\", ($ts_ms - $runtime_ms) / 1000 }")',
    'end=$(awk "BEGIN { printf \\"%.3f\\", $ts_ms / 1000 }")',
    'say result "rc=$rc" "start=$start" "end=$end" "bytes=$bytes" "pid=$pid"',
  ];
  return `${lines.join("\n")}\n`;
}
