#!/usr/bin/env bash
# Every test of the project, as CI runs it: unit and property tests (vitest).
# Prints a final line "N passed, N failed" so a run that executes nothing is visible.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
status=$?
node -e '
  const r = require("./test-results/vitest.json");
  const failed = r.numFailedTests + (r.numFailedTestSuites > 0 && r.numFailedTests === 0 ? r.numFailedTestSuites : 0);
  console.log(`${r.numPassedTests} passed, ${failed} failed`);
' || { echo "0 passed, 1 failed"; exit 1; }
exit $status
