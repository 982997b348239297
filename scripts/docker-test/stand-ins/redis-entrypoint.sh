#!/bin/sh
# The official redis image's rule: `redis-server` started without a config file gets
# `--protected-mode no`, since without it Redis refuses every client that is not on loopback.
set -eu
if [ "${1:-}" = redis-server ] && [ ! -f "${2:-}" ]; then
  set -- "$@" --protected-mode no
fi
exec "$@"
