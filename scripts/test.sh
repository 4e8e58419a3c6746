#!/usr/bin/env bash
# npm test: every part in order, stopping at the first one that fails.
#   1. type check (the package and the demo pages)  2. node tests  3. browser tests (Chromium)  4. end-to-end tests (Chromium)
#   5. examples: the packed tarball installed into each of examples/* and used in Chromium
# Totals of each suite land in test-output/ and are summed by scripts/summarize.mjs.
set -uo pipefail
shopt -s globstar nullglob
cd "$(dirname "$0")/.."
rm -rf test-output && mkdir -p test-output

finish() {
  local rc=$1
  node scripts/summarize.mjs
  exit "$rc"
}

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "type check (tsc --noEmit; the demo pages' browser code: tsc -p demo/public)"
npx tsc --noEmit || { echo "type check failed"; finish 1; }
npx tsc --noEmit -p demo/public || { echo "type check of the demo pages failed"; finish 1; }

step "build (npm run build: dist/ for the packaging, manifest and size tests)"
node scripts/build.mjs --quiet || { echo "build failed"; finish 1; }

step "node tests"
node_files=(test/node/**/*.test.ts)
node --import tsx --test --test-concurrency=2 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination=test-output/node.tap \
  "${node_files[@]}" || finish 1

step "browser tests (web-test-runner, Chromium)"
node scripts/require-chromium.mjs || finish 1
npx web-test-runner || finish 1

e2e_files=(test/e2e/**/*.test.ts)
if [ ${#e2e_files[@]} -gt 0 ]; then
  step "end-to-end tests (playwright-core, Chromium)"
  node --import tsx --test --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination=test-output/e2e.tap \
    "${e2e_files[@]}" || finish 1
fi

example_files=(test/examples/**/*.test.ts)
if [ ${#example_files[@]} -gt 0 ]; then
  step "examples (npm pack, installed into a copy of each example, run against the sandbox in Chromium)"
  pack_dir=$(mktemp -d)
  trap 'rm -rf "$pack_dir"' EXIT
  # A clean environment: no npm_config_* of the outer `npm test` reaches the inner npm.
  tgz=$(env -i PATH="$PATH" HOME="$HOME" npm pack --ignore-scripts --loglevel=error --pack-destination "$pack_dir" | tail -n 1)
  [ -f "$pack_dir/$tgz" ] || { echo "npm pack wrote no tarball"; finish 1; }
  PAYDESK_TARBALL="$pack_dir/$tgz" node --import tsx --test --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination=test-output/examples.tap \
    "${example_files[@]}" || finish 1
fi

finish 0
