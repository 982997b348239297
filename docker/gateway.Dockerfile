# Gateway: the Koa HTTP API on port 3000. It queues card renders on Redis for the renderers and
# serves /media/<uuid>.png from S3 (MinIO). This image is for distributed mode (REDIS_URL set): it
# carries no fonts, so embedded mode (no REDIS_URL) stops at boot naming the missing font packages.
# Build from the repository root:
#   docker build -f docker/gateway.Dockerfile -t utility-api-gateway .
# BuildKit is required (RUN --mount): the default builder since Docker 23; on older engines
# prefix DOCKER_BUILDKIT=1.
#
# The base is pinned by tag. For builds that cannot change under you, pin its digest as well:
#   docker build --build-arg NODE_IMAGE=node:24-bookworm-slim@sha256:<digest> ...
# (`docker buildx imagetools inspect node:24-bookworm-slim` prints the digest). `pnpm test:docker`
# passes a stand-in base here where no registry can be reached (scripts/docker-test).
#
# Why canvas is in this image: the gateway imports the renderer package for embedded mode, and
# that import loads canvas's native addon at start-up in both modes, so canvas.node and the
# libraries it links against must be present even though the gateway never draws. The stages up
# to `build` are the renderer's, so BuildKit shares their cache between the two images.
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
# `@utility-api/gateway...` is the gateway and the workspace packages it depends on (the renderer
# package among them); the root project (linters, test tools) is not selected, and --prod leaves
# out every devDependency.
RUN --mount=type=cache,id=utility-api-pnpm-store,target=/pnpm-store,sharing=locked \
    pnpm install --frozen-lockfile --prod --filter "@utility-api/gateway..." --store-dir /pnpm-store
# emojibase-data ships 30 locales (~49 MB); random-emoji reads only en/ and meta/
# (tests/deploy checks that the gateway imports nothing else from it).
RUN cd node_modules/.pnpm/emojibase-data@*/node_modules/emojibase-data \
 && find . -mindepth 1 -maxdepth 1 -type d ! -name en ! -name meta ! -name versions -exec rm -rf {} +
COPY tsconfig.json tsconfig.base.json ./
COPY packages packages
COPY services/gateway services/gateway
COPY services/renderer services/renderer

# ---- runtime: Node, the shared libraries canvas.node links against, the app.
FROM ${NODE_IMAGE} AS runtime
# The runtime halves of the -dev packages above (see `readelf -d canvas.node`), and tini as PID 1:
# it forwards SIGTERM to node, which drains its requests, and reaps any zombie process, so the
# image behaves the same under `docker run`, compose or Kubernetes without relying on `--init`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tini \
      libcairo2 libpango-1.0-0 libpangocairo-1.0-0 libglib2.0-0 libfreetype6 libpng16-16 \
      libjpeg62-turbo libgif7 librsvg2-2 \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
COPY --from=build /app/tsconfig.json /app/tsconfig.base.json /app/
COPY --from=build /app/node_modules /app/node_modules
COPY --from=build /app/packages /app/packages
COPY --from=build /app/services/gateway /app/services/gateway
COPY --from=build /app/services/renderer /app/services/renderer
# Started from the service folder, as `node services/gateway/src/main.ts` is in dev: Node 24 strips
# the TypeScript types itself, so no loader or compiled copy ships in the image.
WORKDIR /app/services/gateway
# The image's own `node` user (uid 1000); the code it runs stays root-owned and read-only to it.
USER node
EXPOSE 3000
# The gateway drains its requests on SIGTERM (SHUTDOWN_TIMEOUT_MS, 25 s by default): give it that
# long before SIGKILL (compose: stop_grace_period; docker run: --stop-timeout 30).
STOPSIGNAL SIGTERM
# Liveness (/healthz), not readiness: a gateway whose Redis is briefly down recovers by itself,
# and an orchestrator that restarts unhealthy containers should not restart it for that.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The gateway's V8 heap limits (GATEWAY_HEAP_FLAGS in src/config.ts): its share of the embedded tree.
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=4", "src/main.ts"]
