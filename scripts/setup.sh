#!/usr/bin/env bash
# Installs what the project needs and the machine lacks; fast and silent when nothing is missing.
# System packages come from apt (Debian/Ubuntu); Node dependencies from the pnpm lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

# package.json `engines`: Node ^24.12 (pnpm only enforces it on install). ./run brings its own Node 24.
if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major === 24 && minor >= 12 ? 0 : 1)'; then
  echo "setup: this project runs on Node 24.12 or a later 24.x, not $(node -v); use ./run (it puts Node 24 in .tools/node24) or nvm use" >&2
  exit 1
fi

# Keep in sync with docs/development.md's "System packages" list and docker/renderer.Dockerfile (except the
# last line: tools the hostile-image tests build and check their bombs with, never in an image).
SYSTEM_PACKAGES=(
  build-essential pkg-config python3
  libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev
  redis-server openssl tzdata
  fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
  webp gifsicle libjpeg-turbo-progs libavif-bin
)
# `setup.sh --test` (what `pnpm test` runs) also installs the browser the docs and playground tests
# drive through puppeteer-core, and what tests/process/sdk needs to install and run the Python SDK
# (sdk/python) with Debian's python3: pip, setuptools and wheel to build its wheel offline (setuptools
# before 70.1 has no bdist_wheel of its own), venv to install it into a fresh environment, discord.py
# for its helper; `./run start` needs none of them.
if [ "${1:-}" = "--test" ]; then SYSTEM_PACKAGES+=(chromium python3-pip python3-setuptools python3-wheel python3-venv python3-discord); fi

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}" >&2
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# Reinstall node dependencies only when Node, the lockfile or a manifest changed since the last
# install. The stamp's first line is the Node version the install was built for: canvas is a native
# addon, so a node_modules built for another Node (an older checkout's Node 20) is removed and
# linked again from pnpm's store, which rebuilds canvas for this Node's ABI.
stamp=node_modules/.setup-stamp
node_version=$(node -v)
fingerprint=$( (echo "$node_version"; cat pnpm-lock.yaml package.json pnpm-workspace.yaml packages/*/package.json services/*/package.json) 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(tail -n 1 "$stamp")" != "$fingerprint" ]; then
  if [ -d node_modules ] && [ "$(head -n 1 "$stamp" 2>/dev/null)" != "$node_version" ]; then
    echo "setup: node_modules was not built for Node $node_version; installing again" >&2
    rm -rf node_modules packages/*/node_modules services/*/node_modules
  fi
  echo "setup: installing node dependencies" >&2
  pnpm install --frozen-lockfile >&2
  printf '%s\n%s\n' "$node_version" "$fingerprint" > "$stamp"
fi
