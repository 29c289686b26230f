#!/usr/bin/env bash
# Runs the unit and command-line tests on the current Node.js LTS as well as on the Node.js that runs
# everything else (package.json promises Node 20.19 and later, and Node 20 is past its end of life).
# The LTS comes from the npm registry's `node` package, installed into a folder of its own; better-sqlite3,
# the one native addon, is built for it there, in a copy of the package, against the headers that package ships.
# Only while the tests run on the LTS is that build put in node_modules, and the current one put back afterwards.
#
# Usage: scripts/test-node-lts.sh [--prepare DIR | --use DIR] [major]   (QUIRE_LTS_NODE, else 26: Active LTS since October 2026)
#   (neither)       prepares the LTS in a temporary folder, runs the tests on it, and removes the folder
#   --prepare DIR   only installs the LTS into DIR and builds better-sqlite3 for it there, leaving node_modules
#                   alone: .ci/run does this beside `npm test`
#   --use DIR       runs the tests on the LTS that `--prepare DIR` made
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all
dir=
case "${1:-}" in
  --prepare) mode=prepare; dir=$2; shift 2 ;;
  --use) mode=use; dir=$2; shift 2 ;;
esac
major=${1:-${QUIRE_LTS_NODE:-26}}
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/quire-node-lts.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
dist="$dir/node_modules/node/node_modules/node-linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')"
built="$dir/better-sqlite3/build/Release/better_sqlite3.node"

if [ "$mode" != use ]; then
  echo "== installing node@$major from the npm registry"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
  [ -x "$dist/bin/node" ] || { echo "node@$major did not install a Node.js binary at $dist/bin/node"; exit 1; }
  echo "== node $("$dist/bin/node" --version): building better-sqlite3 for it (in $dir)"
  rm -rf "$dir/better-sqlite3"
  cp -a node_modules/better-sqlite3 "$dir/better-sqlite3"
  rm -rf "$dir/better-sqlite3/build"
  # The package's own install script (a prebuilt binary when one can be downloaded, else node-gyp), run by the LTS
  # (first on PATH) with npm's node-gyp, so that it builds for that Node; JOBS: both cores.
  (cd "$dir/better-sqlite3" && PATH="$dist/bin:$PATH" npm_config_nodedir="$dist" JOBS=2 npm run install --foreground-scripts) >"$dir/build.log" 2>&1 \
    || { cat "$dir/build.log"; exit 1; }
  [ -f "$built" ] || { cat "$dir/build.log"; echo "better-sqlite3 was not built at $built"; exit 1; }
  [ "$mode" = prepare ] && exit 0
fi

[ -x "$dist/bin/node" ] && [ -f "$built" ] || { echo "no LTS prepared in $dir (scripts/test-node-lts.sh --prepare $dir)"; exit 1; }
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
saved="$dir/better_sqlite3.node.current"
cp "$addon" "$saved"
# Swapped by renaming, so that a process that has the addon open keeps the file it opened.
trap 'cp "$saved" "$addon.next" && mv "$addon.next" "$addon"; [ "$mode" = all ] && rm -rf "$dir"; true' EXIT
cp "$built" "$addon.next" && mv "$addon.next" "$addon"
export PATH="$dist/bin:$PATH"
node -e "new (require('better-sqlite3'))(':memory:').close()" || { cat "$dir/build.log"; exit 1; }

echo "== unit and command-line tests on node $(node --version) (SQLite)"
env -u TEST_DATABASE_URL node scripts/test.mjs $(ls test/unit/*.test.ts) test/cli.test.ts
