#!/usr/bin/env bash
# The main job, from a fresh machine: install dependencies, build, bake assets/ and load the
# result into the GPU with engine-sample (headless; Mesa's lavapipe when there is no GPU).
# Outputs: build/baked/ (baked assets + manifest.json), build/screenshot.tx and build/screenshot.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build
build/asset-baker/asset-baker assets -o build/baked
build/engine-sample/engine-sample build/baked --validate --screenshot build/screenshot.tx "$@"
build/asset-baker/asset-baker export build/screenshot.tx -o build/screenshot.png
