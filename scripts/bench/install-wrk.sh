#!/usr/bin/env bash
# Installs wrk (the light endpoints' load generator) from apt when it is missing, as scripts/setup.sh
# installs the project's system packages.
set -euo pipefail
command -v wrk >/dev/null 2>&1 && exit 0
echo "bench: installing wrk" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "bench: run as root or install sudo to install wrk" >&2; exit 1; }
  as_root=(sudo)
fi
if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >&2; then
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >&2
fi
