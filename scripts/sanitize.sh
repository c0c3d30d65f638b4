#!/usr/bin/env bash
# The test suite under a sanitizer (docs/sanitizers.md).
#
#   scripts/sanitize.sh thread           ThreadSanitizer, the whole suite (.build-tsan)
#   scripts/sanitize.sh address          AddressSanitizer (and LeakSanitizer), the whole suite (.build-asan)
#   scripts/sanitize.sh thread --ci      ThreadSanitizer over the concurrency targets only, as CI runs it
#
# The passes follow scripts/test (the same three groups: everything but the pixel targets and the
# real-time suites; the pixel targets; the real-time suites, the suites marked `.realTime` that
# scripts/realtime-suites names, with the same DARKROOM_TEST_PASS checks), with one difference:
# the first group runs serially. A sanitizer makes every thread switch and memory access several times dearer, and
# with Swift Testing's parallel runs on 2 cores the worker tests starve one another past their
# event waits (measured under TSan: 30 s and 3 failures in parallel, 7 s and none serially, for
# the same 38 worker tests; under ASan the parallel group passed once and failed 14 waits the
# next time). Serial runs lose nothing a sanitizer checks: each test starts its own tasks and
# threads, and what happens inside a test is what it reports.
#
# `-Xlinker --export-dynamic` lets the Swift plugins the tests load (built with the same
# instrumentation) find the TSan runtime, which is linked statically into the test executable and
# otherwise keeps symbols such as __tsan_external_write to itself.
#
# SWIFT_BACKTRACE=enable=no: a test plugin calls abort() on purpose to crash its worker, and the
# Swift runtime's crash handler (it suspends every thread to print backtraces) trips TSan's own
# runtime ("CHECK failed: tsan_rtl.cpp"), so the worker never dies and the supervising test times
# out. Without the handler the process aborts as it does in a normal build.
#
# A report makes the run fail: TSan's exit code is 66 and `halt_on_error=1` stops at the first
# report, so nothing scrolls past. Suppressions live in scripts/sanitizers/*.supp, each with the
# reason it is safe; today they are empty.
set -euo pipefail
cd "$(dirname "$0")/.."

kind="${1:-}"
ci=0
[ "${2:-}" = "--ci" ] && ci=1

realtime=$(scripts/realtime-suites --regex)
pixels='^(DarkroomCodecsTests|DarkroomCoreTests|StandardProcessorsTests|DarkroomFuzzTests)\.'
# What CI runs under TSan: the targets that hold the concurrency (locks, atomics, the group
# commit, the blocking pool, continuations and the event source's buffers, the source fetcher's
# coalescing, the plugin host).
concurrency='^(DarkroomQueueTests|DarkroomEventStreamTests|DarkroomOutputTests|DarkroomWorkerTests|DarkroomPipelineTests|DarkroomCacheTests|DarkroomSystemTests|DarkroomRedisTests|DarkroomSourcesTests|DarkroomPluginsTests)\.'

case "$kind" in
    thread)
        build_path=.build-tsan
        flags=(--sanitize=thread -Xlinker --export-dynamic)
        export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/sanitizers/thread.supp"
        ;;
    address)
        build_path=.build-asan
        flags=(--sanitize=address -Xlinker --export-dynamic)
        export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
        export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/leak.supp:print_suppressions=0"
        ;;
    *)
        echo "usage: scripts/sanitize.sh thread|address [--ci]" >&2
        exit 2
        ;;
esac

export SWIFT_BACKTRACE=enable=no

start=$(date +%s)
swift build --build-tests --build-path "$build_path" "${flags[@]}"
built=$(date +%s)
echo "scripts/sanitize.sh: built in $((built - start)) s"

# `run PASS ARGS…`: PASS is what DARKROOM_TEST_PASS says (`parallel` for every group but the
# real-time suites', even when it runs serially: what it checks is that no marked suite is in it).
run() {
    DARKROOM_TEST_PASS="$1" swift test --skip-build --build-path "$build_path" "${flags[@]}" "${@:2}"
}

if [ $ci = 1 ]; then
    echo "== $kind sanitizer: the concurrency targets, serially, without the real-time suites"
    run parallel --no-parallel --filter "$concurrency" --skip "$realtime"
else
    echo "== $kind sanitizer: everything but the pixel targets and the real-time suites"
    run parallel --no-parallel --skip "$pixels" --skip "$realtime"
    echo "== $kind sanitizer: the pixel targets, in parallel"
    run parallel --filter "$pixels" --skip "$realtime"
    echo "== $kind sanitizer: the real-time suites, serially"
    run serial --no-parallel --filter "$realtime"
fi
echo "scripts/sanitize.sh: $kind, tests in $(( $(date +%s) - built )) s"
