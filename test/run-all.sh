#!/usr/bin/env bash
# Every test of the project, as CI runs it: unit and property tests, the notebooks run
# headlessly and the report page checked in headless Chromium (all through vitest).
# Prints a final line "N passed, N failed" so a run that executes nothing is visible.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
# Jupyter (nbconvert, nbclient, ipykernel) and chromium, installed with apt-get if missing.
bash test/ensure-system-packages.sh || { echo "0 passed, 1 failed"; exit 1; }
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
status=$?
node -e '
  const r = require("./test-results/vitest.json");
  const failed = r.numFailedTests + (r.numFailedTestSuites > 0 && r.numFailedTests === 0 ? r.numFailedTestSuites : 0);
  console.log(`${r.numPassedTests} passed, ${failed} failed`);
' || { echo "0 passed, 1 failed"; exit 1; }
exit $status
