#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Installs what ringlame's build, tests and benchmark need on Debian 12.
# Idempotent and quiet: does nothing when everything is already installed.
set -euo pipefail

PKGS=(build-essential cmake pkg-config libsndfile1-dev liburing-dev libncurses-dev lame libmp3lame-dev
      sox fretsonfire-songs-muldjord fretsonfire-songs-sectoid python3 time
      clang libclang-rt-14-dev util-linux
      # the programs that tests/clients/ runs through the drop-in libmp3lame.so.0
      # (Audacity headless on its own Xvfb server)
      ffmpeg libsox-fmt-mp3 gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-base
      audacity xvfb)

missing=()
for p in "${PKGS[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup: installing ${missing[*]}" >&2
# another apt run (unattended upgrades, a second setup) holds the lock: wait
# for it instead of failing
APT=(apt-get -o DPkg::Lock::Timeout=600)
$SUDO "${APT[@]}" update -qq >/dev/null
for p in "${missing[@]}"; do
    cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
        echo "setup: package '$p' is not available from the configured apt sources" >&2
        exit 1
    fi
done
$SUDO "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# the reference must be Debian's lame 3.100
lame --version 2>/dev/null | grep -q 'version 3\.100' || { echo "setup: lame is not version 3.100" >&2; exit 1; }
