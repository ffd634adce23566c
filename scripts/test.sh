#!/usr/bin/env bash
# The whole test suite from a fresh clone: installs Node >= 22, the npm dependencies, a real
# `pulumi` CLI and PostgreSQL where missing, then typechecks, lints and runs every jest test (unit,
# integration, e2e, reliability), after checking the format (prettier). It ends with one line
# per check (`typecheck: passed`, `lint: FAILED …`, `format:check: passed`) and then the plain
# summary `N passed, N failed`, which counts jest's test cases only. Any failure, a check's
# included, makes the exit status non-zero.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

paths="$(bash scripts/install.sh | tail -n 1)" || { echo "install failed (see above)"; echo "0 passed, 1 failed"; exit 1; }
export PATH="$paths:$PATH"
bash scripts/install-postgres.sh
echo "node $(node --version), npm $(npm --version 2>/dev/null)"
echo "pulumi $(pulumi version)"

status=0
check_lines=()
for check in typecheck lint format:check; do
  echo "--- $check"
  if npm run -s "$check"; then
    check_lines+=("$check: passed")
  else
    check_lines+=("$check: FAILED (its errors are above, under \"--- $check\")")
    status=1
  fi
done

echo "--- jest"
results="$(mktemp -d)/jest-results.json"
# Two workers on this 2-core machine: the CLI suites mostly wait (reconcile steps, Retry-After),
# and jest's default (cores - 1) ran every file one after another.
npx jest --ci --maxWorkers=2 --json --outputFile="$results" "$@" || status=1

printf '%s\n' "${check_lines[@]}"
# A suite that fails before any case runs (a syntax error, a throwing import) counts as one failure.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const failedSuites = r.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + failedSuites} failed` +
    (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' "$results" || { echo "0 passed, 1 failed"; status=1; }
exit $status
