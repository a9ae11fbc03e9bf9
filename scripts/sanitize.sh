#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and then ThreadSanitizer
# (docs/hostile-input.md), each in its own build directory so the normal debug build is
# left alone. The kernel tier is skipped: its guest runs the uninstrumented binaries.
#
#   scripts/sanitize.sh [address|thread]...      (default: address thread)
#
# Extra arguments after `--` go to `swift test` (e.g. `-- --filter GesturedProtocolTests`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# The runtime's backtracer would read a crashed stack itself; under ASan that read is
# reported as an error of its own, so leave reporting to the sanitizer.
export SWIFT_BACKTRACE=enable=no

sanitizers=()
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        address|thread) sanitizers+=("$1"); shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "sanitize.sh: unknown argument '$1' (address, thread, or -- test arguments)" >&2; exit 2 ;;
    esac
done
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)

# Leaks: the Swift runtime keeps metadata caches for the life of the process, which LSan
# at exit would count; the fuzz targets check leaks per input instead.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"

for sanitizer in "${sanitizers[@]}"; do
    scratch=".build/sanitize-$sanitizer"
    # Tests that pace a replay against a reading client slow the pace under a sanitizer.
    export GESTURED_SANITIZER="$sanitizer"
    # The tests that run the binaries (gestured, gesturectl) run this build's, instrumented
    # too, not .build/debug's (which a fresh checkout does not have).
    export GESTURED_BIN_DIR="$PWD/$scratch/debug"
    start=$(date +%s)
    echo "sanitize: building the tests with --sanitize=$sanitizer in $scratch"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "sanitize: running the tests under --sanitize=$sanitizer"
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --skip KernelTierTests "${extra[@]}"
    echo "sanitize: $sanitizer: passed in $(( $(date +%s) - start )) s"
done
