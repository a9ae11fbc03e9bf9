#!/usr/bin/env bash
# Latency of gestured against the floor and against libinput, measured in
# the kernel tier's guest. A benchmark: it prints figures, asserts nothing.
#
# Usage: scripts/vm/latency/run.sh [ROUNDS]   (4 gestures a round, default 10)
#
# latency = the moment a process receives an event - the kernel
# (CLOCK_MONOTONIC) timestamp of the frame it reacted to, for
#   floor     a bare libevdev reader, every frame
#   libinput  libinput's gesture events through its C library
#   gestured  gesture messages read by a client of the daemon's socket
# all reading the same uinput clickpad at once. Software emulation inflates
# the absolute figures; the ratios are what carry over. Also prints the
# daemon's CPU ticks over 10 s idle and its RSS with two devices open.
# Needs `swift build` first (the guest runs .build/debug's gestured).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=${1:-10}
"$repo/scripts/vm/setup.sh"
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-floor" "$here/floor.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-libinput" "$here/libinput.c" $(pkg-config --cflags --libs libinput)
cc -O2 -Wall -Wextra -o "$bin/latency-client" "$here/client.c"
out=$("$repo/scripts/vm/run.sh" --timeout $((120 + rounds * 10)) "$here/guest.sh" "$bin" "$rounds")
echo "$out"
echo "$out" | awk '
	$2 == "samples" && NF >= 7 { p50[$1] = $5; p99[$1] = $7 }
	END {
		if (p50["floor"] && p50["libinput"] && p50["gestured"]) {
			printf "ratios p50: gestured/floor %.2f, gestured/libinput %.2f\n",
				p50["gestured"] / p50["floor"], p50["gestured"] / p50["libinput"]
			printf "ratios p99: gestured/floor %.2f, gestured/libinput %.2f\n",
				p99["gestured"] / p99["floor"], p99["gestured"] / p99["libinput"]
		}
	}'
