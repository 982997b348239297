#!/bin/sh
# Makes a debootstrap minbase root ($1) look like debian:bookworm-slim, as debuerreotype (which
# builds the official Debian images) does: apt deletes downloaded .debs and its caches after every
# install, fetches no translations, and dpkg leaves out documentation (copyright files excepted),
# man pages and locales. Run by stand-in-images.ts before the root is tarred.
set -eu
root=$1

cat > "$root/etc/apt/apt.conf.d/docker-clean" <<'CONF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CONF
echo 'Acquire::Languages "none";' > "$root/etc/apt/apt.conf.d/docker-no-languages"
echo 'Acquire::GzipIndexes "true";' > "$root/etc/apt/apt.conf.d/docker-gzip-indexes"
echo 'Apt::AutoRemove::SuggestsImportant "false";' > "$root/etc/apt/apt.conf.d/docker-autoremove-suggests"

mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'CONF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
CONF
# What debootstrap already installed, thinned the same way.
find "$root/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
for folder in groff info linda lintian/overrides locale man; do
  [ -d "$root/usr/share/$folder" ] && find "$root/usr/share/$folder" -mindepth 1 -delete
done

chroot "$root" apt-get clean
rm -rf "$root/var/lib/apt/lists"
mkdir -p "$root/var/lib/apt/lists/partial"
