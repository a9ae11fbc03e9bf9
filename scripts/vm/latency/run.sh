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
# Alone, each freshly started reader first reads one unmeasured cycle, whose
# figures are printed as "cold"; the ratios to the goals are the measured
# (warm) cycle's, with the cold ones beside them.
# Software emulation inflates the absolute figures; the ratios are what
# carry over. Also prints the daemon's CPU ticks over 10 s idle and its RSS
# with two devices open. Needs `swift build` first (the guest runs
# .build/debug's gestured unless GESTURED_BIN names another build;
# GESTURED_VM_TIMEOUT overrides the guest's time limit on a loaded host;
# GESTURED_BASELINE_BIN names a second build measured alone in the same
# rounds as "before", with its ratios to the relay beside gestured's).
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
cc -O2 -Wall -Wextra -o "$bin/latency-now" "$here/now.c"
per_round=90
[ -n "${GESTURED_BASELINE_BIN:-}" ] && per_round=115
out=$("$repo/scripts/vm/run.sh" --timeout "${GESTURED_VM_TIMEOUT:-$((180 + rounds * per_round))}" "$here/guest.sh" "$bin" "$rounds")
echo "$out"
echo "$out" | awk '
	$3 == "samples" && NF >= 8 { p50[$1, $2] = $6; p99[$1, $2] = $8 }
	$3 == "cpu-us-per-frame" { cpu[$1, $2] = $4 }
	END {
		n = split("gestured before", daemons, " ")
		split("alone cold", turns, " ")
		for (t = 1; t <= 2; t++) {
			ph = turns[t]
			for (i = 1; i <= n; i++) {
				d = daemons[i]
				if (!(p50[ph, d] && p50[ph, "relay"] && cpu[ph, "relay"]))
					continue
				printf "%s %s/relay: p50 %.2f, p99 %.2f, cpu per frame %.2f%s\n", ph, d,
					p50[ph, d] / p50[ph, "relay"], p99[ph, d] / p99[ph, "relay"], cpu[ph, d] / cpu[ph, "relay"],
					ph == "alone" ? " (goals 1.3, 1.5, 1.5)" : " (the unmeasured first cycle)"
			}
			if (p50[ph, "before"] && p50[ph, "gestured"])
				printf "%s gestured/before: p50 %.2f, p99 %.2f, cpu per frame %.2f\n", ph,
					p50[ph, "gestured"] / p50[ph, "before"], p99[ph, "gestured"] / p99[ph, "before"],
					cpu[ph, "gestured"] / cpu[ph, "before"]
		}
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
