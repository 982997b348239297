#!/bin/sh
# One-shot MinIO setup, run by the `minio-init` service of docker-compose.yml (image minio/mc)
# before the gateway and the renderers start. Idempotent: every `docker compose up` reruns it.
#   1. the media bucket (S3_BUCKET);
#   2. its expiry rule: objects go MEDIA_TTL_DAYS days after upload. The rule ID is the one the
#      services use (EXPIRY_RULE_ID in packages/media-store), so when they set the rule again at
#      boot they replace this one instead of adding a second;
#   3. the services' user (S3_ACCESS_KEY / S3_SECRET_KEY), allowed only this bucket, so the
#      gateway and the renderers never hold the MinIO root credentials.
set -eu

: "${MINIO_ROOT_USER:?}" "${MINIO_ROOT_PASSWORD:?}" "${S3_ACCESS_KEY:?}" "${S3_SECRET_KEY:?}"
bucket=${S3_BUCKET:-cards}
ttl_days=${MEDIA_TTL_DAYS:-30}
case $ttl_days in
  '' | *[!0-9]*) echo "minio-init: MEDIA_TTL_DAYS must be a whole number of days, got '$ttl_days'" >&2; exit 1 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The healthcheck already waited for MinIO; the retries cover a restart in between.
attempt=1
until mc alias set local http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null; do
  if [ "$attempt" -ge 10 ]; then
    echo "minio-init: MinIO at http://minio:9000 did not accept the root credentials" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep 2
done

mc mb --ignore-existing "local/$bucket"

# Import replaces the bucket's whole lifecycle configuration, so reruns never pile up rules.
cat > "$work/lifecycle.json" <<EOF
{
  "Rules": [
    {
      "ID": "utility-api-media-expiry",
      "Status": "Enabled",
      "Filter": { "Prefix": "" },
      "Expiration": { "Days": $ttl_days }
    }
  ]
}
EOF
mc ilm rule import "local/$bucket" < "$work/lifecycle.json"

if [ "$S3_ACCESS_KEY" = "$MINIO_ROOT_USER" ]; then
  echo "minio-init: S3_ACCESS_KEY is the root user; the services will use the root credentials"
else
  # What the media store calls: HEAD bucket (ListBucket), the lifecycle rule, and put, stat and
  # get of objects. No CreateBucket: the bucket exists by now. No DeleteObject: the rule expires.
  cat > "$work/policy.json" <<EOF
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["s3:ListBucket", "s3:GetBucketLocation", "s3:GetLifecycleConfiguration", "s3:PutLifecycleConfiguration"],
      "Resource": ["arn:aws:s3:::$bucket"]
    },
    {
      "Effect": "Allow",
      "Action": ["s3:GetObject", "s3:PutObject"],
      "Resource": ["arn:aws:s3:::$bucket/*"]
    }
  ]
}
EOF
  policy="utility-api-$bucket"
  # `user add` on an existing user sets its secret again, so a changed S3_SECRET_KEY takes effect.
  mc admin user add local "$S3_ACCESS_KEY" "$S3_SECRET_KEY" >/dev/null
  mc admin policy create local "$policy" "$work/policy.json" >/dev/null
  # Attaching a policy that is already attached is an error in mc; that one means "done".
  if ! output=$(mc admin policy attach local "$policy" --user "$S3_ACCESS_KEY" 2>&1); then
    case $output in
      *"already in effect"*) ;;
      *) echo "$output" >&2; exit 1 ;;
    esac
  fi
  echo "minio-init: user $S3_ACCESS_KEY may use bucket $bucket (policy $policy)"
fi
echo "minio-init: bucket $bucket ready, objects expire after $ttl_days days"
