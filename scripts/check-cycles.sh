#!/usr/bin/env bash
# Fails when any runtime import cycle exists in the services or packages (type-only imports excluded).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(pnpm --silent exec dpdm --no-warning --no-tree --transform --exit-code circular:1 'services/*/src/**/*.ts' 'packages/*/src/**/*.ts' 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -q 'no circular dependency' || { echo "$out"; exit 1; }
echo "no import cycles"
