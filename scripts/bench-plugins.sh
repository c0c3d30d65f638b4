#!/usr/bin/env bash
# The cost of crossing the plugin ABI: builds the C example plugin (`invert`) with -O2, then runs
# `darkroom-plugin-bench` in release mode, which times the plugin through Darkroom against the
# same operation as a built-in Swift processor and against the bare callback. Prints a Markdown
# table of median times per call (docs/benchmarks.md#plugin-abi has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cc -std=c11 -O2 -shared -fPIC -I Plugins/include Plugins/Examples/C/invert.c -o "$dir/libinvert.so"
swift build -c release --product darkroom-plugin-bench >/dev/null
"$(swift build -c release --show-bin-path)/darkroom-plugin-bench" "$dir/libinvert.so"
