# STAND-IN for MinIO (minio/minio and minio/mc), used by `pnpm test:docker` only when those images
# cannot be pulled: s3rver (the S3 server the project's tests already use) on the stand-in Node
# base. It answers the S3 calls the media store makes, ignores signatures and has no lifecycle
# rules (the store reports that and goes on). Not for production.
ARG NODE_IMAGE
FROM ${NODE_IMAGE}
ARG S3RVER_VERSION
WORKDIR /opt/s3rver
RUN npm install --omit=dev --no-audit --no-fund "s3rver@${S3RVER_VERSION}" && npm cache clean --force \
 && mkdir /data && chown node:node /data
COPY s3rver-serve.mjs s3rver-create-bucket.mjs ./
USER node
EXPOSE 9000
CMD ["node", "/opt/s3rver/s3rver-serve.mjs"]
