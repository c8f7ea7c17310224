#!/usr/bin/env bash
# Installs what warptune builds and tests with, from Debian 12's packages. Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2046 # one package per word
apt-get install -y --no-install-recommends $(grep -v '^#' "$(dirname "$0")/debian-packages")
