#!/usr/bin/env bash
# The whole suite: static checks (lint, types, import cycles, deployment files), then every ava test.
# Ends with one line "tests: N passed, N failed", counting each static check as one test.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
bash scripts/setup.sh --test || { echo "tests: 0 passed, 1 failed"; exit 1; }

passed=0
failed=0
check() {
  local name=$1; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); echo "ok - $name"; else failed=$((failed + 1)); echo "not ok - $name"; fi
}
check lint pnpm --silent lint
check typecheck pnpm --silent typecheck
check import-cycles pnpm --silent cycles
check deploy-files bash scripts/check-deploy.sh

# Every ava test, once, on the Node 24 this project runs on: every tier (docs/testing.md). The
# browser tier runs last, two files at a time: each starts a Chromium, and eight of them at once
# beside the other tiers on two cores slowed the docs page's 390 px walk past its 3-minute backstop.
# Arguments (a folder or a file) run just those, in one ava run.
echo "== ava"
log=$(mktemp)
crashed=0
run_ava() {
  pnpm --silent exec ava --tap "$@" 2>&1 | tee -a "$log"
  local status=${PIPESTATUS[0]}
  # A crash prints no TAP line for what it stopped: an ava that failed without a failed test is one failure.
  if [ "$status" -ne 0 ] && ! grep -qE '^not ok ' "$log"; then crashed=$((crashed + 1)); fi
}
if [ "$#" -gt 0 ]; then
  run_ava "$@"
else
  run_ava tests/unit tests/http tests/process tests/redis tests/deploy
  run_ava --concurrency=2 tests/browser
fi
ava_passed=$(grep -cE '^ok ' "$log" || true)
ava_failed=$(( $(grep -cE '^not ok ' "$log" || true) + crashed ))
# A crash before any test ran prints no TAP lines; count it as a failure rather than a pass.
if [ "$ava_passed" -eq 0 ] && [ "$ava_failed" -eq 0 ]; then ava_failed=1; fi
rm -f "$log"
passed=$((passed + ava_passed))
failed=$((failed + ava_failed))
echo "tests: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
