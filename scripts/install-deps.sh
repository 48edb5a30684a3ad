#!/usr/bin/env bash
# Installs every build, test and tool dependency from Debian 12 packages.
# Safe to run repeatedly; needs root (or sudo) and network access to the Debian mirrors.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git python3 time util-linux valgrind
  nlohmann-json3-dev libsimdjson-dev liblz4-dev libxxhash-dev zlib1g-dev
  libstb-dev libtinyobjloader-dev libcli11-dev libmeshoptimizer-dev libdraco-dev
  gltfpack libspng-dev libturbojpeg0-dev
  catch2 libbenchmark-dev
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers
  libglfw3-dev xvfb xauth
  clang libclang-rt-14-dev clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
