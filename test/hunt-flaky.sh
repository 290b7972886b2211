#!/usr/bin/env bash
# Hunt flaky tests: run the whole suite several times in a row (default 3), the last time
# with both cores kept busy by two spinning processes (a loaded machine is where races and
# timing assumptions show), and report every run that failed with the tests that failed in
# it. A test that fails even once is flaky: fix it. Exits 0 only when every run passed.
#
#   test/hunt-flaky.sh [runs]                   npm run test:all, `runs` times
#   HUNT_COMMAND="npx vitest run --project unit" test/hunt-flaky.sh 5
#
# Each run's output is kept in $HUNT_LOGS (default: a new temporary folder), named in the
# report. The spinning processes are stopped when their run ends, and on any exit.
set -u
cd "$(dirname "$0")/.."
runs=${1:-3}
case "$runs" in '' | *[!0-9]* | 0) echo "usage: test/hunt-flaky.sh [runs ≥ 1]" >&2; exit 2 ;; esac
command=${HUNT_COMMAND:-npm run test:all}
logs=${HUNT_LOGS:-$(mktemp -d -t ckpt-hunt-flaky-XXXXXX)}
mkdir -p "$logs"

busy=()
stop_busy() {
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  busy=()
}
trap stop_busy EXIT
trap 'exit 130' INT TERM

failed_runs=0
for i in $(seq 1 "$runs"); do
  how=""
  if [ "$i" -eq "$runs" ]; then
    # Named after this script's pid, so that they can be told from anyone else's.
    for _ in 1 2; do node -e 'for (;;);' "hunt-flaky-busy-$$" & busy+=($!); done
    how=", both cores kept busy"
  fi
  log="$logs/run-$i.log"
  echo "run $i/$runs$how: $command"
  bash -c "$command" > "$log" 2>&1
  status=$?
  stop_busy
  # The suite's last line ("N passed, N failed" for test:all), without colours.
  last=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -v '^\s*$' | tail -n 1)
  if [ "$status" -eq 0 ]; then
    echo "  passed: $last"
  else
    failed_runs=$((failed_runs + 1))
    echo "  FAILED (exit $status): $last; the whole output: $log"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ *FAIL ' | sort -u | sed 's/^ */  /'
  fi
done
if [ "$failed_runs" -eq 0 ]; then
  echo "all $runs runs passed"
else
  echo "$failed_runs of $runs runs failed: the tests named above are flaky (or broken); logs in $logs"
  exit 1
fi
