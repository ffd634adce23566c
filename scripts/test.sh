#!/usr/bin/env bash
# The whole test suite from a fresh clone: installs Node >= 22, the npm dependencies and a real
# `pulumi` CLI where missing, then typechecks, lints and runs every jest test (unit,
# integration, e2e, reliability). The last line is the plain summary `N passed, N failed`.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

paths="$(bash scripts/install.sh | tail -n 1)" || { echo "install failed (see above)"; echo "0 passed, 1 failed"; exit 1; }
export PATH="$paths:$PATH"
echo "node $(node --version), npm $(npm --version 2>/dev/null)"
echo "pulumi $(pulumi version)"

# Typecheck and lint count as one test each, so that the summary line never reads green when
# they failed.
checks_passed=0; checks_failed=0
for check in typecheck lint; do
  echo "--- $check"
  if npm run -s "$check"; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); fi
done
status=$(( checks_failed > 0 ))

echo "--- jest"
results="$(mktemp -d)/jest-results.json"
npx jest --ci --json --outputFile="$results" "$@" || status=1

node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const failedSuites = r.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
  const [checksPassed, checksFailed] = process.argv.slice(2).map(Number);
  console.log(`${r.numPassedTests + checksPassed} passed, ${r.numFailedTests + failedSuites + checksFailed} failed` +
    (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' "$results" "$checks_passed" "$checks_failed" || { echo "0 passed, 1 failed"; status=1; }
exit $status
