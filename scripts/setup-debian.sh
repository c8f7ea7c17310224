#!/usr/bin/env bash
# Installs what warptune builds and tests with, from Debian 12's packages. Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
    build-essential cmake pkg-config \
    libnlopt-dev libcjson-dev libcsv-dev libcmocka-dev liblzma-dev
