/**
 * Stand-ins for Slurm's commands on PATH (small shell scripts that print what Slurm 22.05
 * prints, from the recorded fixtures, and fail on cue), for tests of `ckpt release` against
 * failures a live Slurm cannot produce on demand and for logs written by a real run of the
 * hook. The hook against the real daemons is tested in slurm-release.test.ts.
 * `useSlurmStandIns()` registers the hooks that install them and restore the environment.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { constantModel } from "../schedule/models";

export const recorded = JSON.parse(readFileSync(join(__dirname, "fixtures/squeue-json/22.05.json"), "utf8")) as { jobs: Record<string, unknown>[] };

/** The stand-ins: each logs its call, then does what the files in $FAKE_SLURM_DIR say. */
const STAND_INS: Record<string, string> = {
  sinfo: `
if [ "$*" = "-h -N -o %N" ]; then printf 'n1\\nn2\\n'; exit 0; fi
n=$(cat "$D/sinfo.failures" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/sinfo.failures"; echo "sinfo: error: Unable to contact slurm controller (connect failure)" >&2; exit 1; fi
printf 'n1|draining|release: test\\nn2|mixed|none\\n'`,
  squeue: `
case "$(cat "$D/squeue.mode" 2>/dev/null)" in
  hang) echo $$ > "$D/squeue.pid"; exec sleep 120 ;;
  *) cat "$D/squeue.json" ;;
esac`,
  scancel: `
n=$(cat "$D/scancel.failures" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/scancel.failures"; echo "scancel: error: Kill job error on job id: Unable to contact slurm controller (connect failure)" >&2; exit 1; fi
for a in "$@"; do id=$a; done
echo "$1" > "$D/signalled.$id"`,
  scontrol: `
case "$1 $2 $3" in
  "-o show reservation") echo "No reservations in the system" ;;
  "-o show job")
    n=$(cat "$D/scontrol.failures" 2>/dev/null || echo 0)
    if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$D/scontrol.failures"; echo "slurm_load_jobs error: Socket timed out on send/recv operation" >&2; exit 1; fi
    if [ -e "$D/requeued.$4" ]; then state=PENDING restarts=1
    elif [ -e "$D/signalled.$4" ]; then state=COMPLETED restarts=0
    else state=RUNNING restarts=0; fi
    echo "JobId=$4 JobName=stand-in UserId=root(0) JobState=$state Reason=None Requeue=1 Restarts=$restarts BatchFlag=1 ExitCode=0:0 NodeList=n1" ;;
  "requeue $2 ") touch "$D/requeued.$2" ;;
  *) echo "scontrol stand-in: unexpected $*" >&2; exit 1 ;;
esac`,
};

export interface SlurmStandIns {
  /** A fresh stand-in cluster for one test; its listing is `jobs` (the recorded 22.05 records). Returns its state folder. */
  cluster(jobs: Record<string, unknown>[], extra?: Record<string, unknown>): string;
  /** The stand-ins' calls so far, one line each. */
  calls(): string[];
  /** `ckpt release --rm slurm` with a 100 MB/s model and a lock in the stand-ins' folder. */
  base(): string[];
  /** The current cluster's state folder and the stand-ins' root folder. */
  readonly state: string;
  readonly root: string;
}

export function useSlurmStandIns(): SlurmStandIns {
  let root = "";
  let bin = "";
  let state = "";
  const savedEnv = { ...process.env };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "ckpt-release-stand-ins-"));
    bin = join(root, "bin");
    mkdirSync(bin);
    for (const [name, body] of Object.entries(STAND_INS)) {
      writeFileSync(join(bin, name), `#!/bin/bash\nD=$FAKE_SLURM_DIR\necho "${name} $* | SLURM_TIME_FORMAT=$SLURM_TIME_FORMAT SQUEUE_FORMAT=\${SQUEUE_FORMAT-unset}" >> "$D/calls.log"\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    }
    writeFileSync(join(root, "model.json"), JSON.stringify(constantModel(100, "100 MB/s")));
  });

  const cluster = (jobs: Record<string, unknown>[], extra: Record<string, unknown> = {}): string => {
    state = mkdtempSync(join(root, "state-"));
    // Pretty-printed, as squeue prints it.
    writeFileSync(join(state, "squeue.json"), JSON.stringify({ meta: { plugin: { type: "openapi/v0.0.38" } }, errors: [], jobs, ...extra }, null, 2));
    process.env.PATH = `${bin}:${savedEnv.PATH}`;
    process.env.FAKE_SLURM_DIR = state;
    // In root's environment this would change what squeue prints; the hook removes it.
    process.env.SQUEUE_FORMAT = "%i";
    return state;
  };
  const calls = () => (existsSync(join(state, "calls.log")) ? readFileSync(join(state, "calls.log"), "utf8").trim().split("\n") : []);
  const base = () => ["release", "--rm", "slurm", "--model", join(root, "model.json"), "--lock", join(root, "lock")];

  afterEach(() => {
    process.env = { ...savedEnv };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return {
    cluster,
    calls,
    base,
    get state() {
      return state;
    },
    get root() {
      return root;
    },
  };
}
