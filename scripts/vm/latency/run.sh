#!/usr/bin/env bash
# Latency of gestured against the floor and against libinput, measured in
# the kernel tier's guest. A benchmark: it prints figures, asserts nothing.
#
# Usage: scripts/vm/latency/run.sh [ROUNDS]   (4 gestures a round, default 10)
#
# latency = the moment a process receives an event - the kernel
# (CLOCK_MONOTONIC) timestamp of the frame it reacted to, for
#   floor     a bare libevdev reader, every frame
#   relay     a bare reader forwarding every frame over a Unix socket to a
#             second process (what any daemon adds at the least)
#   libinput  libinput's gesture events through its C library
#   gestured  gesture messages read by a client of the daemon's socket
# each alone on the guest's CPU, then all four at once (guest.sh says how).
# Software emulation inflates the absolute figures; the ratios are what
# carry over. Also prints the daemon's CPU ticks over 10 s idle and its RSS
# with two devices open. Needs `swift build` first (the guest runs
# .build/debug's gestured unless GESTURED_BIN names another build;
# GESTURED_VM_TIMEOUT overrides the guest's time limit on a loaded host).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=${1:-10}
"$repo/scripts/vm/setup.sh"
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-floor" "$here/floor.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-libinput" "$here/libinput.c" $(pkg-config --cflags --libs libinput)
cc -O2 -Wall -Wextra -o "$bin/latency-relay" "$here/relay.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-client" "$here/client.c"
out=$("$repo/scripts/vm/run.sh" --timeout "${GESTURED_VM_TIMEOUT:-$((180 + rounds * 60))}" "$here/guest.sh" "$bin" "$rounds")
echo "$out"
echo "$out" | awk '
	$3 == "samples" && NF >= 8 { p50[$1, $2] = $6; p99[$1, $2] = $8 }
	END {
		split("alone together", phases, " ")
		for (i = 1; i <= 2; i++) {
			ph = phases[i]
			if (!(p50[ph, "floor"] && p50[ph, "relay"] && p50[ph, "libinput"] && p50[ph, "gestured"]))
				continue
			printf "%s ratios p50: gestured/floor %.2f, gestured/relay %.2f, gestured/libinput %.2f\n", ph,
				p50[ph, "gestured"] / p50[ph, "floor"], p50[ph, "gestured"] / p50[ph, "relay"],
				p50[ph, "gestured"] / p50[ph, "libinput"]
			printf "%s ratios p99: gestured/floor %.2f, gestured/relay %.2f, gestured/libinput %.2f\n", ph,
				p99[ph, "gestured"] / p99[ph, "floor"], p99[ph, "gestured"] / p99[ph, "relay"],
				p99[ph, "gestured"] / p99[ph, "libinput"]
		}
	}'
