#!/usr/bin/env bash
# Builds and runs docker/host.Dockerfile where no container registry is reachable, with podman.
#
#   docker/offline.sh build [runner|node-client|fleet]
#                                      local base images (once), then the host (or runner, or
#                                      Node.js client) image; fleet: the fleet's HAProxy, Redis
#                                      and Prometheus images (its replicas are the host image)
#   docker/offline.sh run [ARGS...]    the host image, ARGS passed to `podman run` before the image
#
# The local base images stand in for mcr.microsoft.com/dotnet/{sdk,aspnet}:10.0: a Debian
# bookworm made with debootstrap from this machine's own apt source, plus this machine's .NET
# (the whole SDK and this machine's CA bundle for the build stage; only the runtimes for the final
# stage, with the same non-root "app" user, uid 1654, as the standard images). Remove an image
# (podman rmi) to have it made again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PODMAN=(podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs)
IMAGE=${RPCCOMPARE_IMAGE:-localhost/rpccompare/host:latest}
RUNNER_IMAGE=localhost/rpccompare/runner:latest
NODE_CLIENT_IMAGE=localhost/rpccompare/node-client:latest
NODE=localhost/rpccompare/node:20
DEBIAN=localhost/rpccompare/debian:bookworm
SDK=localhost/rpccompare/dotnet-sdk:10.0
RUNTIME=localhost/rpccompare/dotnet-aspnet:10.0
DOTNET_DIR=$(dirname "$(readlink -f "$(command -v dotnet)")")
APP_UID=1654

has_image() { "${PODMAN[@]}" image exists "$1"; }

import_rootfs() { # directory, image name, extra --change arguments...
  local rootfs=$1 name=$2
  shift 2
  tar -C "$rootfs" -c . | "${PODMAN[@]}" import \
    --change "ENV PATH=/usr/share/dotnet:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV DOTNET_ROOT=/usr/share/dotnet" \
    --change "ENV DOTNET_NOLOGO=1" \
    --change "ENV DOTNET_CLI_TELEMETRY_OPTOUT=1" \
    "$@" - "$name" >/dev/null
}

build_base_images() {
  docker/install-prerequisites.sh
  local work
  work=$(mktemp -d /tmp/rpccompare-rootfs-XXXXXX)
  trap 'rm -rf "$work"' RETURN
  if ! has_image "$DEBIAN"; then
    # The mirror comes from this machine's apt configuration; no host name is written here.
    local mirror
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [[ -n "$mirror" ]] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)
    echo "offline: debootstrap bookworm from $mirror"
    debootstrap --variant=minbase --include=ca-certificates,libicu72,libssl3 bookworm "$work/debian" "$mirror" >/dev/null
    import_rootfs "$work/debian" "$DEBIAN"
  fi
  if ! has_image "$SDK" || ! has_image "$RUNTIME"; then
    rm -rf "$work/debian" && mkdir -p "$work/debian"
    "${PODMAN[@]}" export "$("${PODMAN[@]}" create "$DEBIAN" /bin/true)" | tar -C "$work/debian" -x
    cp -a "$work/debian" "$work/sdk"
    mkdir -p "$work/sdk/usr/share/dotnet"
    cp -a "$DOTNET_DIR/." "$work/sdk/usr/share/dotnet/"
    # The build stage restores packages over TLS: give it this machine's trust store, which is
    # what lets this machine itself reach its package registry.
    cp -L /etc/ssl/certs/ca-certificates.crt "$work/sdk/etc/ssl/certs/ca-certificates.crt"
    import_rootfs "$work/sdk" "$SDK"
    cp -a "$work/debian" "$work/runtime"
    mkdir -p "$work/runtime/usr/share/dotnet"
    cp -a "$DOTNET_DIR/dotnet" "$DOTNET_DIR/host" "$DOTNET_DIR/shared" "$work/runtime/usr/share/dotnet/"
    chroot "$work/runtime" useradd --uid "$APP_UID" --user-group --create-home app
    import_rootfs "$work/runtime" "$RUNTIME" --change "ENV APP_UID=$APP_UID"
    "${PODMAN[@]}" container prune -f >/dev/null
  fi
}

# Stands in for the official node image: the Debian base plus this machine's Node.js and npm, and
# the official image's unprivileged "node" user (uid 1000).
build_node_image() {
  has_image "$NODE" && return
  local work node_bin npm_dir
  work=$(mktemp -d /tmp/rpccompare-rootfs-XXXXXX)
  trap 'rm -rf "$work"' RETURN
  node_bin=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(readlink -f "$(command -v npm)")")/..
  "${PODMAN[@]}" export "$("${PODMAN[@]}" create "$DEBIAN" /bin/true)" | tar -C "$work" -x
  mkdir -p "$work/usr/local/bin" "$work/usr/local/lib/node_modules"
  cp "$node_bin" "$work/usr/local/bin/node"
  cp -a "$(cd "$npm_dir" && pwd)" "$work/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/usr/local/bin/npm"
  chroot "$work" useradd --uid 1000 --user-group --create-home node
  # npm ci in the image's build reaches the registry over TLS as this machine does: with its trust
  # store (Node.js reads only its built-in roots unless told).
  cp -L /etc/ssl/certs/ca-certificates.crt "$work/etc/ssl/certs/ca-certificates.crt"
  import_rootfs "$work" "$NODE" --change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"
  "${PODMAN[@]}" container prune -f >/dev/null
}

case "${1:-}" in
  build)
    build_base_images
    target=${2:-host}
    if [[ "$target" == fleet ]]; then
      # The rest of the fleet (docker/fleet/compose.yaml; its replicas are the host image): HAProxy, Redis
      # and Prometheus from Debian's packages on the local Debian base (apt reaches this machine's mirror: --network host).
      for part in haproxy redis prometheus; do
        "${PODMAN[@]}" build --format docker --network host --build-arg DEBIAN_IMAGE="$DEBIAN" \
          -t "localhost/rpccompare/$part:latest" -f "docker/fleet/$part.Dockerfile" .
      done
      exit 0
    fi
    [[ "$target" == host || "$target" == runner || "$target" == node-client ]] || { echo "offline: build host, runner, node-client or fleet" >&2; exit 2; }
    tag=$IMAGE
    [[ "$target" == runner ]] && tag=$RUNNER_IMAGE
    base_args=(--build-arg SDK_IMAGE="$SDK" --build-arg RUNTIME_IMAGE="$RUNTIME")
    if [[ "$target" == node-client ]]; then
      build_node_image
      tag=$NODE_CLIENT_IMAGE
      base_args=(--build-arg NODE_IMAGE="$NODE")
    fi
    # Packages the registry lacks come from ../shared/nuget (or RPCCOMPARE_NUGET) as the "nuget"
    # build context; without one the Dockerfile's empty default stage is used.
    nuget=${RPCCOMPARE_NUGET:-../shared/nuget}
    contexts=()
    [[ -d "$nuget" ]] && contexts=(--build-context "nuget=$(cd "$nuget" && pwd)")
    # --network host: the build stage restores from the package registries this machine reaches.
    "${PODMAN[@]}" build --format docker --network host "${contexts[@]}" \
      "${base_args[@]}" \
      -t "$tag" -f "docker/$target.Dockerfile" .
    # The build stage (an SDK image with the sources, ~1 GB) is left unnamed: drop it, and only it.
    "${PODMAN[@]}" image prune -f --filter label=rpccompare.stage=build >/dev/null
    ;;
  run)
    shift
    # Limits at or below this machine's hard limits: podman cannot raise them here.
    exec "${PODMAN[@]}" run --rm --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 "$@" "$IMAGE"
    ;;
  *)
    echo "usage: docker/offline.sh build | run [podman run arguments...]" >&2
    exit 2
    ;;
esac
