#!/usr/bin/env bash
# Makes, without any container registry, local stand-ins for the official Node 20 images the
# Dockerfile defaults to: a Debian bookworm (debootstrap, minbase) root with this machine's Node build
# and a `node` user of uid 1000 as in node:20-bookworm-slim, and a build variant with a compiler,
# Python and Node's headers for better-sqlite3's native module (as node:20-bookworm has).
# Prints the two image names. Kept between runs: tagged with the Node version, so they are remade only
# when the machine's Node changes (or when GW_REBUILD_BASE=1).
set -euo pipefail
podman() { command podman --runtime runc "$@"; }

version=$(node -p process.versions.node)
base="localhost/gw-node:${version}-bookworm-slim"
build="localhost/gw-node:${version}-bookworm"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "${GW_REBUILD_BASE:-0}" = 1 ] && podman rmi -f "$build" "$base" >/dev/null 2>&1 || true

if ! podman image exists "$base"; then
  started=$SECONDS
  root=$(mktemp -d /var/tmp/gw-rootfs.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  # libstdc++6 is all Node links beyond libc; apt/dpkg stay so images built on it can install more.
  debootstrap --variant=minbase --include=libstdc++6 bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
    { tail -20 "$root.log"; echo "debootstrap failed (log above)" >&2; exit 1; }
  rm -f "$root.log"
  # The machine's Node as installed (binary, npm, corepack); headers apart, as only builds need them.
  tar -C / -cf - usr/bin/node usr/bin/npm usr/bin/npx usr/bin/corepack usr/lib/node_modules | tar -C "$root" -xf -
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  tar -C "$root" -cf - . | podman import -q \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$version" --change 'CMD ["node"]' - "$base" >/dev/null
  echo "made $base in $((SECONDS - started)) s" >&2
fi

if ! podman image exists "$build"; then
  started=$SECONDS
  podman build -q --layers=false --network host --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 -t "$build" \
    -f - /usr/include >/dev/null <<DOCKERFILE
FROM $base
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3 make g++ >/dev/null && rm -rf /var/lib/apt/lists/*
COPY node /usr/include/node
DOCKERFILE
  echo "made $build in $((SECONDS - started)) s" >&2
fi
echo "$base $build"
