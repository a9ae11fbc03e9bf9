#!/usr/bin/env bash
# Native instructions per frame on the daemon's whole path, from the replayed frame to the
# client's socket write (`InputHub.stepReplay`, inclusive: the pipeline, the mapping to wire
# messages, encoding, fan-out and the write(2) call for one client), next to the engine's own
# (`GestureEngine.process(_:into:)`), the pipeline's (`GesturePipeline`: assembler, touch
# filter and engine) and the publishing's (mapping, encoding, fan-out; since the one wire model
# the encoding is its own line and fan-out no longer includes it), counted by valgrind's callgrind over `gestured-bench daemon
# --clients 1 --devices 1`. Counts do not depend on the machine's load, so a regression shows
# as a number. A benchmark: it prints figures and asserts nothing (docs/benchmarks.md).
#
# Usage: scripts/bench-instructions.sh [--touchpad | --guest-cycle] [BENCH]
#        (default .build/release/gestured-bench; build it with:
#        swift build -c release --product gestured-bench; swift build -c release --product gesturectl:
#        SwiftPM builds only the last of several --product options)
#        --touchpad replays the touchpad cycle on the demo clickpad (the touch filter's
#        touchpad stages on the path) instead of the touchscreen's.
#        --guest-cycle replays the guest latency benchmark's own cycle (the T650's description,
#        its four gestures, made by the sibling gesturectl's `synthesize`, played four times),
#        so the host count follows the guest's (scripts/vm/latency/instructions.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=()
guest_cycle=
if [ "${1:-}" = "--touchpad" ]; then
  mode=(--touchpad)
  shift
elif [ "${1:-}" = "--guest-cycle" ]; then
  guest_cycle=1
  shift
fi
bench=${1:-.build/release/gestured-bench}
command -v valgrind >/dev/null || { echo "bench-instructions: valgrind is missing (scripts/setup-deps.sh)" >&2; exit 1; }
[ -x "$bench" ] || { echo "bench-instructions: no $bench (swift build -c release --product gestured-bench)" >&2; exit 1; }
work=$(mktemp -d /tmp/gestured-instructions.XXXXXX)
[ -n "${KEEP_CALLGRIND:-}" ] || trap 'rm -rf "$work"' EXIT
# count RUN ARGS...: runs the benchmark under callgrind with ARGS into $work/RUN and prints
# "frames path pipeline engine publishing encoding fanout" (inclusive instructions; "-" where a
# function was not found).
count() {
  local run=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$work/$run.out" "$bench" daemon --clients 1 --devices 1 --idle-seconds 0 "$@" \
    > "$work/$run.txt" 2> "$work/$run.valgrind" || { cat "$work/$run.txt" "$work/$run.valgrind" >&2; exit 1; }
  local frames
  frames=$(awk '/^each device: [0-9]+ frames/ { print $3; exit }' "$work/$run.txt")
  [ -n "$frames" ] || { cat "$work/$run.txt" >&2; echo "bench-instructions: no frame count in the benchmark's output" >&2; exit 1; }
  callgrind_annotate --inclusive=yes --threshold=100 "$work/$run.out" > "$work/$run.annotate" 2> /dev/null
  # Inclusive instructions of the first entry whose "file:mangled-name" matches $1 (callgrind
  # names code inlined into a function by the file it came from).
  inclusive() {
    awk -v pattern="$1" '
      match($0, /^ *[0-9,]+/) {
        n = substr($0, RSTART, RLENGTH); gsub(/[ ,]/, "", n)
        name = $0; sub(/^ *[0-9,]+ *\([ 0-9.]+%\) */, "", name); sub(/ .*$/, "", name)
        if (name ~ pattern) { print n; exit }
      }' "$work/$run.annotate"
  }
  # The step takes the session's slot since session 13 (stepReplay(slot:)), its node before.
  local step='stepReplay[0-9A-F_]*LL(yySSF|4slotySi_tF)$'
  local path pipeline publishing encoding fanout engine deferred
  path=$(inclusive "InputHub\\+Replay\\.swift:\\\$s14GesturedDaemon8InputHubC10$step")
  # The pipeline: its code inlined into the replay step plus its own functions (the step feeds
  # a slice of the recording and advances into one buffer; older builds inlined all of it).
  total() { awk 'BEGIN { s = 0; n = 0 } { if ($1 != "") { s += $1; n++ } } END { if (n) print s }'; }
  pipeline=$( { inclusive "GesturePipeline\\.swift:\\\$s14GesturedDaemon8InputHubC10$step"
    inclusive 'GesturePipeline\.swift:\$s14GesturedDaemon15GesturePipelineV4feed_4into'
    inclusive 'GesturePipeline\.swift:\$s14GesturedDaemon15GesturePipelineV7advance2to4into'; } | total)
  # Publishing: the replay's publish, or the shared step it calls (one wire model) when the
  # compiler inlined the former.
  publishing=$(inclusive 'InputHub\+Replay\.swift:\$s14GesturedDaemon8InputHubC13publishReplay')
  [ -n "$publishing" ] || publishing=$(inclusive 'InputHub\+Publish\.swift:\$s14GesturedDaemon8InputHubC14publishOutputs')
  encoding=$(inclusive 'WireEncoder\.swift:\$s14GesturedDaemon11WireMappingO12writeGesture')
  fanout=$(inclusive 'IPCServer\.swift:\$s14GesturedDaemon9IPCServerC6fanOut')
  engine=$(inclusive 'GestureEngine\.swift:\$s13GestureEngineAAV7process_4intoyAA5FrameV_SayAA0B6OutputOGztF$')
  # Since a wake-up's publishes are fanned out once the wake-up's handlers have run
  # (IPCServer.fanOutPending, DESIGN.md "Daemon, event loop and socket protocol" › "The wire"), the fan-out is no longer
  # inside the replay step: it is added to the path and to publishing. Builds without it had the
  # fan-out inside the step already.
  deferred=$(inclusive 'IPCServer\.swift:\$s14GesturedDaemon9IPCServerC13fanOutPending')
  if [ -n "$deferred" ]; then
    [ -n "$path" ] && path=$((path + deferred))
    [ -n "$publishing" ] && publishing=$((publishing + deferred))
  fi
  echo "$frames ${path:--} ${pipeline:--} ${engine:--} ${publishing:--} ${encoding:--} ${fanout:--}"
}

if [ -n "$guest_cycle" ]; then
  gesturectl=$(dirname "$bench")/gesturectl
  [ -x "$gesturectl" ] || { echo "bench-instructions: no $gesturectl (swift build -c release --product gesturectl)" >&2; exit 1; }
  # scripts/vm/latency/guest.sh's cycle, 4 and 12 times over: the difference of the two counts
  # is 8 cycles of a warm daemon, as the guest counts its second cycle (one-time costs such as
  # the Swift runtime's metadata caches and the wire tables' first use fall out).
  cycle="swipe fingers=3 direction=left
swipe fingers=4 direction=up
pinch scale=2
pinch scale=0.5"
  for n in 4 12; do
    for _ in $(seq "$n"); do printf '%s\n' "$cycle"; done > "$work/cycle$n.txt"
    "$gesturectl" synthesize "$work/cycle$n.txt" --device Tests/EndToEndTests/Devices/logitech-t650.desc > "$work/cycle$n.evemu"
  done
  short=$(count short --recording "$work/cycle4.evemu")
  long=$(count long --recording "$work/cycle12.evemu")
  # Calls on the path (the replay step and the deferred fan-out, nothing else collected), each
  # call instruction's count kept (--dump-instr): what the guest's emulator charges by the call
  # site more than by the instruction (DESIGN.md "Performance principles").
  for n in 4 12; do
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$work/calls$n.out" \
      --toggle-collect='$s14GesturedDaemon8InputHubC10stepReplay*LL4slotySi_tF' --toggle-collect='$s14GesturedDaemon9IPCServerC13fanOutPendingyyF' \
      "$bench" daemon --clients 1 --devices 1 --idle-seconds 0 --recording "$work/cycle$n.evemu" > "$work/calls$n.txt" 2> "$work/calls$n.valgrind" ||
      { cat "$work/calls$n.txt" "$work/calls$n.valgrind" >&2; exit 1; }
  done
  counts=$(echo "$short $long" | awk '{ printf "%d", $8 - $1; for (i = 2; i <= 7; i++) printf " %s", ($i == "-" || $(i + 7) == "-") ? "-" : $(i + 7) - $i; print "" }')
  surface="the guest's T650 cycle, warm: 12 cycles minus 4"
else
  counts=$(count run ${mode[@]+"${mode[@]}"})
  surface=$(sed -n 's/^each device: .*(\(demo [a-z]*\), synthesized)$/\1/p' "$work/run.txt")
fi
read -r frames path pipeline engine publishing encoding fanout <<< "$counts"
per() { [ "$1" != "-" ] && awk -v n="$1" -v f="$frames" 'BEGIN { printf "%.0f", n / f }' || echo "n/a"; }

echo "instructions per frame (callgrind, $frames frames of one device ($surface), one client; $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "  daemon path (InputHub.stepReplay + deferred fan-out, read to send): $(per "$path")"
echo "    pipeline (GesturePipeline, inlined):            $(per "$pipeline")"
echo "      engine (GestureEngine.process(_:into:)):      $(per "$engine")"
echo "    publishing (wire mapping, encoding, fan-out):   $(per "$publishing")"
echo "      encoding gesture lines (WireMapping.writeGesture): $(per "$encoding")"
echo "      fan-out and write (IPCServer.fanOut):         $(per "$fanout")"
if [ -n "$guest_cycle" ]; then
  read -r _ calls _ sites < <(awk -v frames="$frames" -v base="$work/calls4.out" -f scripts/callgrind-calls.awk "$work/calls4.out" "$work/calls12.out")
  echo "  calls on the path: $calls a frame, from about $sites distinct call sites a frame (DESIGN.md \"Performance principles\")"
fi
[ "$path" != "-" ] && [ "$engine" != "-" ] && awk -v p="$path" -v e="$engine" 'BEGIN { printf "  daemon path / engine: %.2fx\n", p / e }'
