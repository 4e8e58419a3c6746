#!/usr/bin/env bash
# npm test: every part in order, stopping at the first one that fails.
#   1. type check (the package, the type tests of test/types, the demo pages; after the build, the
#      public API against api/*.api.md, and the published .d.ts), and the house rules (lint:structure)  2. node tests  3. browser tests
#      (Chromium, Firefox ESR, WebKitGTK: docs/browsers.md)  4. end-to-end tests (Chromium)  4b. the shopper
#      paths and code integrity in Chromium, WebKit and Gecko (test/engines)
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

# Every suite has a bound: a hung test (a stray server keeping node alive, a browser that never
# answers) fails its suite with a message instead of eating CI's whole time. Each is several times
# the suite's usual duration on a 2-core machine. Node's runner also fails any one test that runs
# past 5 minutes. (Not --test-force-exit: it cuts the TAP file before its totals.)
bounded() {
  local seconds=$1 label=$2; shift 2
  timeout --kill-after=30s "$seconds" "$@"
  local rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo "$label: still running after ${seconds} s, stopped"; fi
  return "$rc"
}
NODE_TEST=(node --import tsx --test --test-timeout=300000)

step "type check (tsc --noEmit; the demo pages' browser code: tsc -p demo/public)"
npx tsc --noEmit || { echo "type check failed"; finish 1; }
npx tsc --noEmit -p demo/public || { echo "type check of the demo pages failed"; finish 1; }
npx tsc --noEmit -p src/console/ui || { echo "type check of the console pages failed"; finish 1; }

step "house rules (npm run lint:structure: module and function lengths, import cycles, the ground floor, the host class)"
npx tsx scripts/structure.ts || { echo "a house rule does not hold (see above)"; finish 1; }

step "build (npm run build: dist/ for the packaging, manifest and size tests)"
node scripts/build.mjs --quiet || { echo "build failed"; finish 1; }

step "public API (api/*.api.md: API Extractor's report of each entry of package.json \"exports\", from dist/*.d.ts; no @internal)"
node scripts/api-report.mjs || { echo "the public API differs from api/*.api.md (see above; update with: npm run api:report)"; finish 1; }

step "API reference (docs/reference: TypeDoc's pages of every entry, generated from the sources)"
node scripts/api-docs.mjs || { echo "docs/reference differs from the sources (see above; update with: npm run docs:api)"; finish 1; }

step "type check of the published .d.ts (test/types/published: paydesk/server and paydesk/provider, lib ES2022 only, no DOM)"
npx tsc -p test/types/published || { echo "type check of the published declarations failed"; finish 1; }

step "node tests"
node_files=(test/node/**/*.test.ts)
bounded 1500 "node tests" "${NODE_TEST[@]}" --test-concurrency=2 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination=test-output/node.tap \
  "${node_files[@]}" || finish 1

# The browser tests in each engine (web-test-runner.config.mjs, PAYDESK_BROWSER): all three run,
# each with its own totals, before a failure in any stops npm test. PAYDESK_BROWSERS="chromium" on a
# developer's machine runs a subset, and says which engines it left out.
engines=(${PAYDESK_BROWSERS:-chromium firefox webkit})
browser_rc=0
for engine in "${engines[@]}"; do
  step "browser tests (web-test-runner, $engine)"
  totals=test-output/browser-$engine.json
  if ! node scripts/require-engine.mjs "$engine"; then
    echo '{"passed":0,"failed":1,"note":"engine not installed"}' > "$totals"; browser_rc=1; continue
  fi
  started=$SECONDS
  PAYDESK_BROWSER=$engine bounded 900 "browser tests in $engine" npx web-test-runner || browser_rc=1
  echo "browser tests in $engine: $((SECONDS - started)) s"
  [ -f "$totals" ] || echo '{"passed":0,"failed":1,"note":"stopped before its totals"}' > "$totals"
done
for engine in chromium firefox webkit; do
  [[ " ${engines[*]} " == *" $engine "* ]] || echo "browser tests in $engine: not run (PAYDESK_BROWSERS=\"${engines[*]}\")"
done
[ "$browser_rc" -eq 0 ] || finish 1

e2e_files=(test/e2e/**/*.test.ts)
if [ ${#e2e_files[@]} -gt 0 ]; then
  step "end-to-end tests (playwright-core, Chromium)"
  bounded 1500 "end-to-end tests" "${NODE_TEST[@]}" --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination=test-output/e2e.tap \
    "${e2e_files[@]}" || finish 1
fi

engine_files=(test/engines/**/*.test.ts)
if [ ${#engine_files[@]} -gt 0 ]; then
  # The shopper's money paths and code integrity, the same specs in each engine (docs/browsers.md, "The shopper's paths in three engines");
  # one run per engine, its totals in test-output/engines-<engine>.tap; every engine runs before the step fails.
  step "shopper paths and code integrity in three engines (test/engines: Chromium, WebKit, Gecko)"
  engines_rc=0
  for engine in chromium webkit gecko; do
    PAYDESK_ENGINES=$engine bounded 420 "engines ($engine)" "${NODE_TEST[@]}" --test-concurrency=1 \
      --test-reporter=spec --test-reporter-destination=stdout \
      --test-reporter=tap --test-reporter-destination="test-output/engines-$engine.tap" \
      "${engine_files[@]}" || engines_rc=1
    printf '%s: %s passed, %s failed\n' "$engine" \
      "$(sed -n 's/^# pass //p' "test-output/engines-$engine.tap" | tail -n 1)" "$(sed -n 's/^# fail //p' "test-output/engines-$engine.tap" | tail -n 1)"
  done
  [ "$engines_rc" -eq 0 ] || finish 1
fi

example_files=(test/examples/**/*.test.ts)
if [ ${#example_files[@]} -gt 0 ]; then
  step "examples (npm pack, installed into a copy of each example, run against the sandbox in Chromium)"
  pack_dir=$(mktemp -d)
  trap 'rm -rf "$pack_dir"' EXIT
  # A clean environment: no npm_config_* of the outer `npm test` reaches the inner npm.
  tgz=$(env -i PATH="$PATH" HOME="$HOME" npm pack --ignore-scripts --loglevel=error --pack-destination "$pack_dir" | tail -n 1)
  [ -f "$pack_dir/$tgz" ] || { echo "npm pack wrote no tarball"; finish 1; }
  PAYDESK_TARBALL="$pack_dir/$tgz" bounded 1800 "examples" "${NODE_TEST[@]}" --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination=test-output/examples.tap \
    "${example_files[@]}" || finish 1
fi

finish 0
