# Renderer: a BullMQ worker that draws cards with node-canvas in worker threads and uploads the
# PNGs to S3 (MinIO). It serves no user traffic; port 3001 answers /healthz, /readyz and /metrics.
# Build from the repository root:
#   docker build -f docker/renderer.Dockerfile -t utility-api-renderer .
# BuildKit is required (RUN --mount): the default builder since Docker 23; on older engines
# prefix DOCKER_BUILDKIT=1.
#
# The base is pinned by tag. For builds that cannot change under you, pin its digest as well:
#   docker build --build-arg NODE_IMAGE=node:24-bookworm-slim@sha256:<digest> ...
# (`docker buildx imagetools inspect node:24-bookworm-slim` prints the digest). `pnpm test:docker`
# passes a stand-in base here where no registry can be reached (scripts/docker-test). All stages use the
# same base so that Node's ABI, glibc and Debian's library versions match between build and run.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- manifests: the package.json files alone, so the dependency layers below are rebuilt only
# when a manifest or the lockfile changes, not on every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY packages packages
COPY services services
RUN find packages services -mindepth 2 -maxdepth 2 ! -name package.json -exec rm -rf {} +

# ---- build: production dependencies, with canvas compiled from source against Debian's cairo.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential pkg-config python3 \
      libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev \
 && rm -rf /var/lib/apt/lists/*
# pnpm comes from npm, as ./run installs it (corepack is not relied on; package.json pins no
# packageManager). Pass --build-arg PNPM_VERSION=10.x.y for an exact version.
ARG PNPM_VERSION=10
RUN npm install -g "pnpm@${PNPM_VERSION}" && npm cache clean --force
# build_from_source: canvas's install script would otherwise try to download a prebuilt binary
# first; compiling against the image's own libraries is what the runtime stage below matches.
# nodedir: node-gyp takes Node's headers from the image instead of downloading them.
ENV CI=true \
    npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
# pnpm applies these to dependencies as it installs them (pnpm-workspace.yaml: patchedDependencies).
COPY patches patches
COPY --from=manifests /app ./
# `@utility-api/renderer...` is the renderer and the workspace packages it depends on; the root
# project (linters, test tools) is not selected, and --prod leaves out every devDependency.
RUN --mount=type=cache,id=utility-api-pnpm-store,target=/pnpm-store,sharing=locked \
    pnpm install --frozen-lockfile --prod --filter "@utility-api/renderer..." --store-dir /pnpm-store
COPY tsconfig.json tsconfig.base.json ./
COPY packages packages
COPY services/renderer services/renderer

# ---- fonts: the card registers font files by absolute path; only those files are kept.
FROM build AS fonts
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
COPY docker/collect-card-fonts.mjs /app/docker/collect-card-fonts.mjs
RUN node /app/docker/collect-card-fonts.mjs /card-fonts

# ---- runtime: Node, the shared libraries canvas.node links against, the card fonts, the app.
FROM ${NODE_IMAGE} AS runtime
# The runtime halves of the -dev packages above (see `readelf -d canvas.node`), and tini as PID 1:
# it forwards SIGTERM to node, which drains its jobs, and reaps any zombie process, so the image
# behaves the same under `docker run`, compose or Kubernetes without relying on `--init`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tini \
      libcairo2 libpango-1.0-0 libpangocairo-1.0-0 libglib2.0-0 libfreetype6 libpng16-16 \
      libjpeg62-turbo libgif7 librsvg2-2 \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HEALTH_HOST=0.0.0.0 \
    HEALTH_PORT=3001
COPY --from=build /app/tsconfig.json /app/tsconfig.base.json /app/
COPY --from=build /app/node_modules /app/node_modules
COPY --from=build /app/packages /app/packages
COPY --from=build /app/services/renderer /app/services/renderer
COPY --from=fonts /card-fonts/ /
# Started from the service folder, as `node services/renderer/src/main.ts` is in dev: Node 24 strips
# the TypeScript types itself, so no loader or compiled copy ships in the image.
WORKDIR /app/services/renderer
# The image's own `node` user (uid 1000); the code it runs stays root-owned and read-only to it.
USER node
EXPOSE 3001
# The renderer finishes the jobs it holds on SIGTERM (SHUTDOWN_TIMEOUT_MS, 25 s by default): give
# it that long before SIGKILL (compose: stop_grace_period; docker run: --stop-timeout 30).
STOPSIGNAL SIGTERM
# Liveness only: a renderer whose Redis is down is alive and reconnects; restarting it would not help.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || 3001) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "src/main.ts"]
