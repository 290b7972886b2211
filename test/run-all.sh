#!/usr/bin/env bash
# Every test of the project, as CI runs it: unit and property tests, the notebooks run
# headlessly, the report page checked in headless Chromium and the live Slurm, OAR and NFS
# clusters (all through vitest) on the machine's Node; then the unit project once more on
# the newest Node LTS (test/newest-lts-node.sh installs it from the npm registry).
# Prints a line per Node and a final line "N passed, N failed" (both together) so a run
# that executes nothing is visible.
#
# It stops what it started: the clusters the tests brought up are taken down at the end
# (CKPT_KEEP_CLUSTERS=1 keeps them for a faster rerun; one that was up before is left up),
# and a process the tests started that is still running then is a failure, named.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
# The clusters are machine-wide: one run at a time (fd 8 is closed for the tests, so no
# daemon they start holds the lock).
if [ "$(id -u)" = 0 ]; then
  mkdir -p /run/lock && exec 8>/run/lock/ckpt-lab-test-all.lock
  flock -n 8 || { echo "run-all: another test run holds /run/lock/ckpt-lab-test-all.lock; waiting" >&2; flock 8; }
fi
clusters=(slurm oar nfs-cluster)
up_before=()
for cluster in "${clusters[@]}"; do
  [ "$(id -u)" = 0 ] && bash "test/cluster/$cluster.sh" running 2>/dev/null && up_before+=("$cluster")
done

# Jupyter (nbconvert, nbclient, ipykernel) and chromium, installed with apt-get if missing.
bash test/ensure-system-packages.sh 8>&- || { echo "0 passed, 1 failed"; exit 1; }
# Every process the tests start inherits this mark (daemons of an earlier run carry another).
mark="run-$$-$(date +%s%N)"
# Two test files at a time: vitest's default on two cores is one (cores − 1), which leaves a
# core idle while a file waits on the processes it started (pipelines, kernels, Chromium).
# The live clusters' files still run one at a time (fileParallelism: false in their project).
workers=${CKPT_TEST_WORKERS:-2}
CKPT_TEST_RUN=$mark npx vitest run --maxWorkers="$workers" --reporter=default --reporter=json --outputFile.json=test-results/vitest.json 8>&-
status=$?
# The same node_modules serve both: the native modules (resvg, duckdb, zeromq) are N-API.
rm -f test-results/vitest-newest-lts.json
if lts_node=$(bash test/newest-lts-node.sh 8>&-); then
  echo "run-all: the unit project on Node $("$lts_node" --version)" >&2
  PATH="$(dirname "$lts_node"):$PATH" CKPT_TEST_RUN=$mark npx vitest run --project unit --maxWorkers="$workers" --reporter=default --reporter=json --outputFile.json=test-results/vitest-newest-lts.json 8>&-
  lts_status=$?
  [ "$status" = 0 ] && status=$lts_status
else
  echo "run-all: could not install the newest Node LTS: its unit run counts as failed" >&2
  status=1
fi

leftovers=0
if [ "${CKPT_KEEP_CLUSTERS:-0}" = 1 ]; then
  echo "run-all: CKPT_KEEP_CLUSTERS=1: the clusters stay up (test/cluster/<name>.sh down stops one)" >&2
else
  for cluster in "${clusters[@]}"; do
    [[ " ${up_before[*]} " == *" $cluster "* ]] && continue
    [ "$(id -u)" = 0 ] && bash "test/cluster/$cluster.sh" running 2>/dev/null && bash "test/cluster/$cluster.sh" down
  done
  # Nothing that carries this run's mark may outlive it; a process killed a moment ago may
  # still be exiting, so it has 10 s to go.
  survivors() { grep -lsa "CKPT_TEST_RUN=$mark" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | sort -n; }
  for _ in $(seq 50); do [ -z "$(survivors)" ] && break; sleep 0.2; done
  left=$(survivors)
  if [ -n "$left" ]; then
    leftovers=1
    echo "run-all: processes started by the tests are still running (stopped now):" >&2
    for pid in $left; do echo "  $pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)" >&2; done
    kill -9 $left 2>/dev/null
  fi
fi

node -e '
  const { existsSync } = require("node:fs");
  const runs = [["the machine'"'"'s Node " + process.version, "./test-results/vitest.json"], ["the newest LTS", "./test-results/vitest-newest-lts.json"]];
  let passed = 0, failed = Number(process.argv[1]);
  for (const [node, file] of runs) {
    // A run that left no results (it could not start) counts as one failure.
    const r = existsSync(file) ? require(file) : { numPassedTests: 0, numFailedTests: 0, numFailedTestSuites: 1 };
    const own = r.numFailedTests + (r.numFailedTestSuites > 0 && r.numFailedTests === 0 ? r.numFailedTestSuites : 0);
    console.error(`run-all: on ${node}: ${r.numPassedTests} passed, ${own} failed`);
    passed += r.numPassedTests;
    failed += own;
  }
  console.log(`${passed} passed, ${failed} failed`);
' "$leftovers" || { echo "0 passed, 1 failed"; exit 1; }
[ "$leftovers" = 0 ] || exit 1
exit $status
