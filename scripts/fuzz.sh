#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ against the package's own module sources and runs
# each for a given time, printing executions, coverage and crashes per target
# (docs/hostile-input.md). The normal `swift build` is not involved: everything goes to
# .build/fuzz.
#
#   scripts/fuzz.sh [--time SECONDS] [--nice N] [--timeout SECONDS] [--build-only] [TARGET...]
#   scripts/fuzz.sh --cost RUNS [--bin DIR] [TARGET...]
#
# TARGET is any of: recording pipeline config actions ipc (default: all). --time is per
# target (default 60); --nice is the fuzzing's niceness (default 10; 19 for the long runs
# on a shared machine), --timeout an input's limit in wall seconds (default 10). Every
# input in Fuzz/Regressions/TARGET/ (inputs that once crashed) is run first. The corpus grown by earlier runs is kept in .build/fuzz/corpus/TARGET and
# reused; the seeds are rebuilt from the project's fixtures each time. Exits 1 when any
# target crashed, hung, leaked or broke a property; the input is saved under
# .build/fuzz/artifacts/TARGET/.
#
# --cost RUNS measures instead of fuzzing: the CPU time (user + system) of RUNS executions
# from the seeds alone (`-seed=1 -len_control=0`, a fresh scratch corpus), minus that of
# loading the seeds (`-runs=0`), each the least of three runs, per target, as microseconds per execution and executions per
# CPU second: figures that do not depend on the machine's load the way wall time does.
# --bin DIR measures the binaries in DIR (e.g. a copy of an earlier build) on the same seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# The Swift runtime's backtracer reads the crashed stack, which ASan reports as an
# underflow of its own and then hangs: let libFuzzer report the crash instead.
export SWIFT_BACKTRACE=enable=no

time_per_target=60
build_only=0
# The long runs share the machine: `--nice 19` (default 10).
nice_level=10
# libFuzzer's -timeout is wall time. A nice-19 process beside a dozen busy ones gets a few
# tenths of a percent of a core, so an input of 50 ms CPU took over 10 s there: the long
# runs pass `--timeout 300`, and a timeout is then rerun alone to see its CPU time.
timeout=10
cost_runs=0
bin_dir=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) time_per_target="$2"; shift 2 ;;
        --build-only) build_only=1; shift ;;
        --nice) nice_level="$2"; shift 2 ;;
        --timeout) timeout="$2"; shift 2 ;;
        --cost) cost_runs="$2"; shift 2 ;;
        --bin) bin_dir="$2"; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
all_targets=(recording pipeline config actions ipc)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

out=.build/fuzz
mkdir -p "$out/modules" "$out/bin"
flags=(
    -swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -warnings-as-errors
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
    -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature NonisolatedNonsendingByDefault
    -I "$out/modules"
    # CLinuxInput (the C shim's module map) for the part of GesturedSystem the actions target needs.
    -I Sources/CLinuxInput
)
for cflag in $(pkg-config --cflags libevdev libudev libsystemd); do flags+=(-Xcc "$cflag"); done

# The package modules each module needs (Package.swift), built before it.
module_dependencies() {
    case "$1" in
        GestureEngine) echo GesturedRandom ;;
        GesturedConfig) echo GestureEngine ;;
    esac
}

# The sources of a module: all of Sources/MODULE, except GesturedSystem (the OS door, which
# needs the daemon's C libraries and logging), of which only the kernel's key and button names
# (InputNames.swift, what actions.conf's Keys= and Click= are checked against) are fuzzed.
module_sources() {
    case "$1" in
        GesturedSystem) echo Sources/GesturedSystem/InputNames.swift ;;
        *) find "Sources/$1" -name '*.swift' | sort ;;
    esac
}

# Builds Sources/MODULE as an instrumented object and module, when it or a module it
# needs changed since the last build. (After changing the flags below: rm -rf .build/fuzz.)
build_module() {
    local module="$1" object="$out/modules/$1.o" stale=0 dependency
    local sources
    mapfile -t sources < <(module_sources "$module")
    if [ ! -f "$object" ] || [ -n "$(find "${sources[@]}" -newer "$object" | head -1)" ]; then stale=1; fi
    for dependency in $(module_dependencies "$module"); do
        [ "$out/modules/$dependency.o" -nt "$object" ] && stale=1
    done
    [ "$stale" = 1 ] || return 0
    echo "fuzz: building module $module (${#sources[@]} files)"
    local started="$out/modules/$module.started"
    touch "$started"
    swiftc "${flags[@]}" -module-name "$module" -wmo -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
        -c -o "$object" "${sources[@]}"
    # swiftc leaves an unchanged object untouched; the time stamp records this build, as of
    # its start, so that a source edited while it compiled is newer and rebuilt next time.
    touch -r "$started" "$object"
    rm -f "$started"
}

# What each target links: modules, then extra sources from the package.
target_modules() {
    case "$1" in
        recording) echo GesturedRandom GestureEngine ;;
        pipeline|config) echo GesturedRandom GestureEngine GesturedConfig ;;
        actions) echo GesturedRandom GestureEngine GesturedConfig GesturedProtocol GesturedCLISupport GesturedSystem ;;
        ipc) echo GesturedProtocol ;;
        *) echo "fuzz.sh: unknown target '$1' (known: ${all_targets[*]})" >&2; exit 2 ;;
    esac
}
# The longest input libFuzzer makes for each target. libFuzzer grows its inputs towards this
# bound during a run, and every target's cost grows with the input (the pipeline runs the
# engine once per 8-byte record), so the bound sets the long runs' speed. Where it can be,
# it is the longest seed rounded up, so no seed is cut: pipeline 4410 bytes (the rotation
# fixture, 551 records), the configuration seeds below 3.6 KB (see make_seeds), actions.conf
# 5.3 KB. Recordings are cut to their header and first events (a 4 KB evemu file holds a
# whole description and ~80 events): further event lines repeat the same parsing.
# Request lines are short; 4 KB holds several, and the framer's bounds go up to 100 bytes.
target_max_len() {
    case "$1" in
        pipeline) echo 4608 ;;
        config) echo 4096 ;;
        actions) echo 6144 ;;
        recording) echo 4096 ;;
        ipc) echo 4096 ;;
    esac
}
# C libraries a target links (the C shim's, for InputNames).
target_libraries() {
    case "$1" in
        actions) pkg-config --libs libevdev ;;
    esac
}
target_sources() {
    case "$1" in
        pipeline|config) echo Sources/GesturedDaemon/GesturePipeline.swift ;;
        actions) echo Sources/gesturectl/ActionsFile.swift ;;
    esac
}

# Seeds: the project's fixtures (never ../shared/corpus), plus Fuzz/Seeds/TARGET.
make_seeds() {
    local target="$1" dir="$out/seeds/$1"
    rm -rf "$dir"; mkdir -p "$dir"
    [ -d "Fuzz/Seeds/$target" ] && cp Fuzz/Seeds/"$target"/* "$dir"/ 2>/dev/null || true
    case "$target" in
        recording)
            find Tests/GestureEngineTests/Fixtures Tests/EndToEndTests/Devices -name '*.evemu' -o -name '*.desc' \
                | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
        pipeline)
            GESTURED_FUZZ_SEEDS_FROM="$(find "$PWD/Tests/GestureEngineTests/Fixtures" -name '*.evemu' | sort | paste -sd:)" \
                GESTURED_FUZZ_SEEDS_TO="$dir" "$out/bin/fuzz-pipeline" >/dev/null ;;
        config)
            # The shipped files are mostly comments (gestured.conf: 17 KB, 2 KB of it
            # settings), longer than the bound: the seeds are its settings, every default it
            # documents ("#Key=value" under "#[Section]"), the evaluation's file, and the
            # settings with the evaluation's as a drop-in.
            grep -v '^[#;]' config/gestured.conf | grep -v '^$' > "$dir/gestured-settings.conf"
            awk '/^#\[[A-Za-z]+( NAME)?\]$/ { s = substr($0, 2); if (s ~ /NAME/) { n++; sub(/NAME/, "default-" n, s) } print s; next }
                 /^#[A-Z][A-Za-z]*=/ { print substr($0, 2) }' config/gestured.conf > "$dir/gestured-defaults.conf"
            cp config/evaluation.conf "$dir"/
            { cat "$dir/gestured-settings.conf"; printf '\0'; grep -v '^[#;]' config/evaluation.conf | grep -v '^$'; } > "$dir/layered.conf" ;;
        actions)
            cp config/actions.conf "$dir"/ ;;
        ipc)
            # The requests of gestured-ipc(7)'s example session, a byte seeding the splits
            # and one choosing the line bound first.
            { printf '\x07\x04'; grep '^{"type"' docs/man/gestured-ipc.7.scd; } > "$dir/man-page-session" ;;
    esac
}

for target in "${targets[@]}"; do
    for module in $(target_modules "$target"); do build_module "$module"; done
done
for target in "${targets[@]}"; do
    binary="$out/bin/fuzz-$target"
    # Absolute paths: the targets find the checkout from #filePath.
    inputs=("$PWD"/Fuzz/Targets/"$target".swift "$PWD"/Fuzz/Support/*.swift $(for f in $(target_sources "$target"); do echo "$PWD/$f"; done))
    objects=()
    for module in $(target_modules "$target"); do objects+=("$out/modules/$module.o"); done
    if [ ! -f "$binary" ] || [ -n "$(find "${inputs[@]}" "${objects[@]}" -newer "$binary" | head -1)" ]; then
        echo "fuzz: linking $binary"
        swiftc "${flags[@]}" -module-name "Fuzz_$target" "${inputs[@]}" "${objects[@]}" -use-ld=lld -lm $(target_libraries "$target") -o "$binary"
    fi
done
[ "$build_only" = 0 ] || exit 0

# CPU seconds (user + system) of one run of a target binary over the seeds, with a fresh
# scratch corpus first (libFuzzer writes what it finds into the first directory).
cpu_seconds() {
    local binary="$1" target="$2" runs="$3" scratch="$out/cost/scratch-$2"
    rm -rf "$scratch"; mkdir -p "$scratch"
    ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=5:quarantine_size_mb=16}" \
        /usr/bin/time -f '%U %S' -o "$out/cost/time" "$binary" "$scratch" "$out/seeds/$target" -runs="$runs" -seed=1 \
        -len_control=0 -max_len="$(target_max_len "$target")" -rss_limit_mb=2048 >"$out/cost/$target.log" 2>&1 \
        || { echo "fuzz: $target failed while measuring (see $out/cost/$target.log)" >&2; exit 1; }
    awk '{ printf "%.3f", $1 + $2 }' "$out/cost/time"
}
if [ "$cost_runs" -gt 0 ]; then
    mkdir -p "$out/cost"
    printf '%-10s %8s %10s %12s %14s\n' target runs "CPU s" "µs per exec" "exec per CPU s"
    for target in "${targets[@]}"; do
        binary="${bin_dir:-$out/bin}/fuzz-$target"
        # The seeds of this checkout, made by its own binary (the pipeline's encoding).
        make_seeds "$target"
        # The least of three: other processes only ever add (caches, frequency), so the
        # minimum is the figure least disturbed by the neighbours.
        base=$(for _ in 1 2 3; do cpu_seconds "$binary" "$target" 0; echo; done | sort -g | head -1)
        total=$(for _ in 1 2 3; do cpu_seconds "$binary" "$target" "$cost_runs"; echo; done | sort -g | head -1)
        awk -v t="$target" -v n="$cost_runs" -v a="$base" -v b="$total" \
            'BEGIN { d = b - a; if (d <= 0) d = 0.001; printf "%-10s %8d %10.2f %12.0f %14.0f\n", t, n, d, d / n * 1e6, n / d }'
    done
    exit 0
fi

status=0
summary=()
for target in "${targets[@]}"; do
    binary="$out/bin/fuzz-$target"
    corpus="$out/corpus/$target"
    artifacts="$out/artifacts/$target"
    log="$out/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$out/logs"
    make_seeds "$target"
    if [ -d "Fuzz/Regressions/$target" ] && [ -n "$(ls -A "Fuzz/Regressions/$target")" ]; then
        if ! "$binary" Fuzz/Regressions/"$target"/* >"$log.regressions" 2>&1; then
            echo "fuzz: $target: a regression input crashes again:" >&2
            tail -30 "$log.regressions" >&2
            status=1
            summary+=("$(printf '%-10s %12s %10s %8s %8s %8s  %s' "$target" - - - - - "REGRESSION")")
            continue
        fi
    fi
    rc=0
    # Fuzz a copy: a rebuild during a long run then cannot change the binary it runs.
    mkdir -p "$out/run"
    cp "$binary" "$out/run/fuzz-$target"
    # Allocation and free stacks 5 frames deep (30 by default: recording them was a third of
    # the IPC target's time), and a 16 MiB quarantine of freed memory (256 by default;
    # an execution frees far less, so a use after free within one input is still caught).
    # Only the reports' stacks are shorter: rerun a saved input alone (`fuzz-TARGET FILE`,
    # default options) for the full ones. Detection itself is unchanged.
    ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=5:quarantine_size_mb=16}" \
    nice -n "$nice_level" "$out/run/fuzz-$target" "$corpus" "$out/seeds/$target" -max_total_time="$time_per_target" -timeout="$timeout" \
        -rss_limit_mb=2048 -max_len="$(target_max_len "$target")" -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    crashes=$(find "$artifacts" -type f -newer "$binary" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    result=ok
    if [ "$rc" != 0 ]; then
        result="FAILED (exit $rc; see $log)"
        status=1
        grep -m3 -E 'fuzz property broken|ERROR: |Fatal error|deadly signal' "$log" >&2 || tail -20 "$log" >&2
    fi
    summary+=("$(printf '%-10s %12s %10s %8s %8s %8s  %s' "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$result")")
done
printf '%-10s %12s %10s %8s %8s %8s  %s\n' target executions exec/s cov features crashes result
printf '%s\n' "${summary[@]}"
exit $status
