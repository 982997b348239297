#!/usr/bin/env bash
# Static checks of the Docker deployment files; no Docker engine needed. Exits non-zero and names
# every failed check:
#   compose        docker-compose (v1, Debian's) validates docker-compose.yml with .env.example,
#                  and with .env when there is one; `docker compose` (v2) too when installed
#   dockerfiles    dockerfile-utils (npm; the validator behind VS Code's Dockerfile support)
#                  checks instructions, flags and JSON forms of docker/*.Dockerfile
#   shell          shellcheck on the MinIO init script, this script and pnpm test:docker's stand-in scripts
# Our own rules (pinned bases, non-root runtime, no build tools in runtime stages, healthchecks,
# scalable renderers, ...) are ava tests in tests/*/deploy: `pnpm test` runs them with the rest of the
# suite, `pnpm exec ava tests/*/deploy` alone.
# hadolint would be the usual Dockerfile linter, but it is neither in Debian 12 nor on npm.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# Installed with apt when missing, as scripts/setup.sh does for the project's system packages.
SYSTEM_PACKAGES=(docker-compose shellcheck)
DOCKERFILE_UTILS="dockerfile-utils@0.16.3"

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "check-deploy: installing system packages: ${missing[*]}" >&2
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "check-deploy: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
    { echo "check-deploy: could not install ${missing[*]}" >&2; exit 1; }
fi

passed=0
failed=()
check() {
  local name=$1; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); echo "ok - $name"; else failed+=("$name"); echo "not ok - $name"; fi
}

# .env.example always (it is what CI has, and what a new operator copies); .env as well when the
# operator has one, since that is what `docker compose up` will read.
env_files=(.env.example)
[ -f .env ] && env_files+=(.env)
compose_has_v2=false
docker compose version >/dev/null 2>&1 && compose_has_v2=true
for env_file in "${env_files[@]}"; do
  check "compose config (v1, $env_file)" docker-compose --env-file "$env_file" -f docker-compose.yml config -q
  # pnpm test:docker's stand-in overrides (Redis, S3) must merge into the production file.
  check "compose config (v1, $env_file, stand-in overrides)" docker-compose --env-file "$env_file" -f docker-compose.yml \
    -f scripts/docker-test/docker-compose.stand-in-redis.yml -f scripts/docker-test/docker-compose.stand-in-s3.yml config -q
  if [ "$compose_has_v2" = true ]; then
    check "compose config (v2, $env_file)" docker compose --env-file "$env_file" -f docker-compose.yml config -q
  fi
done

for dockerfile in docker/*.Dockerfile; do
  check "dockerfile-utils lint $dockerfile" npx --yes "$DOCKERFILE_UTILS" lint "$dockerfile"
done

check "shellcheck" shellcheck docker/*.sh scripts/check-deploy.sh scripts/docker-test/stand-ins/*.sh

echo "check-deploy: ${passed} passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'check-deploy: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
