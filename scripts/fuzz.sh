#!/usr/bin/env bash
# Builds Darkroom's fuzz targets with libFuzzer and AddressSanitizer and runs them.
#
#   scripts/fuzz.sh list                  the targets
#   scripts/fuzz.sh build                 build only (.build-fuzz/debug/darkroom-fuzz)
#   scripts/fuzz.sh TARGET [SECONDS]      run one target (default 60 s)
#   scripts/fuzz.sh all SECONDS           run every target in turn
#
# Each run starts from the committed corpus (Tests/Fuzz/Corpus/TARGET) plus the target's seeds
# (the codec fixtures for the image targets) in a scratch copy, so a run leaves the repository as it
# was. With FUZZ_KEEP=1 the inputs that found new coverage are merged back, minimised, into the
# committed corpus (do that after long runs; see docs/fuzzing.md). A finding is written to
# Tests/Fuzz/Findings/ and the script exits 1; reproduce it with
# `swift run darkroom-fuzz TARGET FILE` (no sanitizer) or `.build-fuzz/debug/darkroom-fuzz FILE`
# with DARKROOM_FUZZ_TARGET set. To run targets side by side, build once, then start each with
# FUZZ_SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."

build_path=.build-fuzz
binary="$build_path/debug/darkroom-fuzz"
targets="decode animation chain job datauri text address allowlist joblist cachename reply plugin avif heicheader metadata s3xml"
fixtures=Tests/DarkroomCodecsTests/Fixtures

build() {
    # FUZZ_SKIP_BUILD=1: several targets at once on one build (build once first).
    [ "${FUZZ_SKIP_BUILD:-0}" = 1 ] && return 0
    # --sanitize=fuzzer links libFuzzer and parses the runner as a library (libFuzzer owns main);
    # -sanitize=fuzzer,address on every module instruments the code under test, not only the runner.
    swift build --build-path "$build_path" --sanitize=fuzzer --sanitize=address \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product darkroom-fuzz
}

# libFuzzer flags and extra seed directories per target.
flags_for() {
    case "$1" in
        decode) echo "-max_len=262144 -dict=Tests/Fuzz/Dictionaries/images.dict" ;;
        animation) echo "-max_len=262144 -dict=Tests/Fuzz/Dictionaries/images.dict" ;;
        chain) echo "-max_len=512 -dict=Tests/Fuzz/Dictionaries/chains.dict" ;;
        job) echo "-max_len=4096 -dict=Tests/Fuzz/Dictionaries/json.dict" ;;
        text) echo "-max_len=512 -dict=Tests/Fuzz/Dictionaries/text.dict" ;;
        datauri) echo "-max_len=8192 -dict=Tests/Fuzz/Dictionaries/datauri.dict" ;;
        address) echo "-max_len=128" ;;
        allowlist) echo "-max_len=1024 -dict=Tests/Fuzz/Dictionaries/text.dict" ;;
        joblist) echo "-max_len=4096 -dict=Tests/Fuzz/Dictionaries/json.dict" ;;
        cachename) echo "-max_len=80" ;;
        reply) echo "-max_len=2048 -dict=Tests/Fuzz/Dictionaries/resp.dict" ;;
        plugin) echo "-max_len=1024" ;;
        avif) echo "-max_len=65536 -dict=Tests/Fuzz/Dictionaries/avif.dict" ;;
        heicheader) echo "-max_len=65536 -dict=Tests/Fuzz/Dictionaries/avif.dict" ;;
        metadata) echo "-max_len=70000" ;;
        s3xml) echo "-max_len=4096 -dict=Tests/Fuzz/Dictionaries/s3xml.dict" ;;
        *) echo "scripts/fuzz.sh: no target '$1' (targets: $targets)" >&2; exit 2 ;;
    esac
}

seeds_for() {
    case "$1" in
        decode) echo "$fixtures/jpeg $fixtures/png $fixtures/webp $fixtures/gif" ;;
        animation) echo "$fixtures/gif $fixtures/webp" ;;
        avif) echo "$fixtures/avif" ;;
        *) echo "" ;;
    esac
}

run() {
    local target=$1 seconds=$2
    local flags seeds scratch status
    flags=$(flags_for "$target")
    seeds=$(seeds_for "$target")
    mkdir -p "Tests/Fuzz/Corpus/$target" Tests/Fuzz/Findings
    scratch=$(mktemp -d "/tmp/darkroom-fuzz-$target.XXXXXX")
    cp -R "Tests/Fuzz/Corpus/$target/." "$scratch/"
    echo "== fuzz $target for ${seconds} s"
    # -timeout and -rss_limit_mb match the harness's limits (4 MP, 64 frames): a legitimate input
    # decodes in well under a second and a few hundred MB even under AddressSanitizer.
    # shellcheck disable=SC2086
    set +e
    DARKROOM_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" \
        "$binary" "$scratch" $seeds $flags -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Tests/Fuzz/Findings/$target-" -print_final_stats=1 > "$scratch.log" 2>&1
    status=$?
    set -e
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)' "$scratch.log" \
        | sed "s/^/$target: /" || true
    if [ $status -ne 0 ]; then
        tail -60 "$scratch.log"
        echo "scripts/fuzz.sh: $target FOUND A PROBLEM (exit $status); the input is in Tests/Fuzz/Findings/" >&2
        return 1
    fi
    if [ "${FUZZ_KEEP:-0}" = 1 ]; then
        DARKROOM_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0" \
            "$binary" -merge=1 "Tests/Fuzz/Corpus/$target" "$scratch" $flags > "$scratch.merge.log" 2>&1
        echo "$target: corpus now $(ls "Tests/Fuzz/Corpus/$target" | wc -l) files"
    fi
    rm -rf "$scratch" "$scratch.log" "$scratch.merge.log"
}

case "${1:-}" in
    list) for t in $targets; do echo "$t"; done ;;
    build) build ;;
    all)
        seconds=${2:?"usage: scripts/fuzz.sh all SECONDS"}
        build
        failed=0
        for t in $targets; do run "$t" "$seconds" || failed=1; done
        exit $failed
        ;;
    "") sed -n '2,16p' "$0"; exit 2 ;;
    *)
        flags_for "$1" > /dev/null
        build
        run "$1" "${2:-60}"
        ;;
esac
