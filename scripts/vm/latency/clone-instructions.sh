#!/usr/bin/env bash
# Instructions a frame the clone's hop costs user space, in the kernel tier's
# guest: gestured with Grab=yes (issue 13) from the wake-up on the grabbed
# touchscreen to the clone's write(2), against latency-clone-floor (a bare C
# reader copying each read into its uinput clone: the floor of one hop),
# counted by callgrind over the latency benchmark's drag (clone-run.sh). A
# benchmark: it prints figures and asserts nothing.
#
# Usage: scripts/vm/latency/clone-instructions.sh           (GESTURED_BIN names the
#            build, as for clone-run.sh; GESTURED_CALLGRIND_OUT=DIR keeps the
#            guest's output and profiles there, else a new directory under /tmp)
#        scripts/vm/latency/clone-instructions.sh --profiles DIR   (the figures
#            of profiles already made: DIR/callgrind/{floor,gestured}.PID and DIR/stdout)
#
# The daemon's hop is counted from its profile (clone-hop.awk sums each
# call's inclusive cost from the profile's call records): everything InputHub's read handler spends (the device's read(2), the
# mirror, the pass-through, the clone's write), less what it spends after the
# write: the engine's step (GesturePipeline.feed), the planning and writing of
# its sink's decisions (CloneRelay.plan), the publishing to clients and the
# handler's bookkeeping after it. The event loop's own wake-up code (epoll_wait's
# return to the handler) is not included, nor is the floor's poll(2) loop
# left out: a handful of instructions either way. "rest" is what the daemon
# spends per frame besides the read handler (the timer, the IPC loop).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

if [ "${1:-}" = --profiles ]; then
	vmout=$2
else
	"$repo/scripts/vm/setup.sh"
	command -v valgrind > /dev/null || { echo "clone-instructions: valgrind is missing (scripts/setup-deps.sh)" >&2; exit 1; }
	bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
	mkdir -p "$bin"
	cc -O2 -Wall -Wextra -o "$bin/latency-clone-floor" "$here/clone-floor.c" $(pkg-config --cflags --libs libevdev)
	export GESTURED_BIN=${GESTURED_BIN:-$repo/.build/debug/gestured}
	vmout=${GESTURED_CALLGRIND_OUT:-$(mktemp -d /tmp/gestured-clone-instructions.XXXXXX)}
	"$repo/scripts/vm/run.sh" --out "$vmout" --timeout "${GESTURED_VM_TIMEOUT:-1200}" "$here/clone-instructions-guest.sh" "$bin"
	echo "profiles: $vmout/callgrind"
fi
frames=$(awk '$1 == "frames" { print $2 }' "$vmout/stdout")
[ -n "$frames" ] && [ "$frames" -gt 0 ] || { echo "clone-instructions: no frame count in $vmout/stdout" >&2; exit 1; }

# demangle: Swift's names readable, when the toolchain's demangler is there
demangle() {
	if command -v swift-demangle > /dev/null; then swift-demangle --simplified; else cat; fi
}
total() { awk '/^totals:/ { print $2; exit }' "$1"; }

for f in "$vmout"/callgrind/floor.*; do
	echo "instructions floor per-frame $(($(total "$f") / frames))"
done
for f in "$vmout"/callgrind/gestured.[0-9]*; do
	awk -v frames="$frames" -f "$here/clone-hop.awk" "$f" | demangle
done
