#!/usr/bin/env bash
# The cost of crossing the plugin ABI: builds the C example plugin (`invert`) with -O3, then runs
# `darkroom-plugin-bench` in release mode, which times the plugin through Darkroom against the
# same operation as a built-in Swift processor and against the bare callback. Prints a Markdown
# table of median times per call (docs/benchmarks.md#plugin-abi has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
# -O3: GCC 12 vectorises this loop only at -O3 (at -O2 the C loop itself is slower than the Swift one).
cc -std=c11 -O3 -shared -fPIC -I Plugins/include Plugins/Examples/C/invert.c -o "$dir/libinvert.so"
echo "plugin built with: $(cc --version | head -1) -O3"
swift build -c release --product darkroom-plugin-bench >/dev/null
"$(swift build -c release --show-bin-path)/darkroom-plugin-bench" "$dir/libinvert.so"
