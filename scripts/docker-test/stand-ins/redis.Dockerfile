# STAND-IN for redis:7.4-alpine, used by `pnpm test:docker` only when that image cannot be pulled:
# Debian 12's redis-server (7.0) behind the same contract docker-compose.yml relies on: the
# `redis-server` command with flags, data in /data, redis-cli for the healthcheck, and (as the
# official image's entrypoint does) protected mode off so other containers may connect.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/redis-entrypoint.sh
WORKDIR /data
USER redis
EXPOSE 6379
ENTRYPOINT ["/bin/sh", "/usr/local/bin/redis-entrypoint.sh"]
CMD ["redis-server"]
