#!/usr/bin/env bash
# Installs the Debian packages airc needs to build and test, if any are
# missing. When everything is there it does nothing (no root, no network).
set -euo pipefail

packages=(
    build-essential cmake pkg-config
    libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
    libcmocka-dev libxxhash-dev libopenblas-dev libdlpack-dev libsleef-dev zlib1g-dev
    libdnnl-dev
    python3 python3-numpy python3-torch
    clang
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup: all ${#packages[@]} packages are installed"
    exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "setup: not root and no sudo: install these packages yourself: ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update
${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
