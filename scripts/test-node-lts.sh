#!/usr/bin/env bash
# Runs the unit and command-line tests on the current Node.js LTS as well as on the Node.js that runs
# everything else (package.json promises Node 20.19 and later, and Node 20 is past its end of life).
# The LTS comes from the npm registry's `node` package, installed into a temporary prefix; better-sqlite3,
# the one native addon, is rebuilt for it against the headers that package ships, and put back afterwards.
# Usage: scripts/test-node-lts.sh [major]   (QUIRE_LTS_NODE, else 26: Active LTS since October 2026)
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:-${QUIRE_LTS_NODE:-26}}

prefix=$(mktemp -d "${TMPDIR:-/tmp}/quire-node-lts.XXXXXX")
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
saved="$prefix/better_sqlite3.node.current"
cp "$addon" "$saved"
restore() {
  cp "$saved" "$addon"
  rm -rf "$prefix"
}
trap restore EXIT

echo "== installing node@$major from the npm registry"
npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
dist="$prefix/node_modules/node/node_modules/node-linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')"
[ -x "$dist/bin/node" ] || { echo "node@$major did not install a Node.js binary at $dist/bin/node"; exit 1; }
export PATH="$dist/bin:$PATH"
echo "== node $(node --version): rebuilding better-sqlite3 for it"
# npm (run here by the LTS, first on PATH) builds with its own node-gyp, for the Node that runs it.
npm_config_nodedir="$dist" npm rebuild better-sqlite3 --foreground-scripts >"$prefix/build.log" 2>&1 || { cat "$prefix/build.log"; exit 1; }
node -e "new (require('better-sqlite3'))(':memory:').close()" || { cat "$prefix/build.log"; exit 1; }

echo "== unit and command-line tests on node $(node --version) (SQLite)"
env -u TEST_DATABASE_URL node scripts/test.mjs $(ls test/unit/*.test.ts) test/cli.test.ts
