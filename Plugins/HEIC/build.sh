#!/bin/sh
# Builds Darkroom's HEIC coder module, darkroom-heic.so, against libheif (Debian: libheif-dev).
# The module is not part of `darkroom`: put it in a plugins directory and pass --plugins DIR
# (docs/plugins.md). Usage: Plugins/HEIC/build.sh [OUTPUT_DIR]   (default: .build/plugins)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../../.build/plugins"}
mkdir -p "$out"
# shellcheck disable=SC2046  # pkg-config's flags are meant to split into words
${CC:-cc} -std=c11 -O2 -Wall -Wextra -shared -fPIC -fvisibility=hidden \
    -I "$here/../include" $(pkg-config --cflags libheif) \
    "$here/heic.c" -o "$out/darkroom-heic.so" $(pkg-config --libs libheif)
chmod 0755 "$out/darkroom-heic.so"
echo "$out/darkroom-heic.so"
