#!/usr/bin/env bash
# Latency through gestured's clone of a grabbed touchscreen (Grab=yes) against
# libinput reading the touchscreen directly and against the bare floor of a
# clone hop, in the kernel tier's guest. A benchmark: it prints figures,
# asserts nothing.
#
# Usage: scripts/vm/latency/clone-run.sh [ROUNDS]   (a 2 s drag a reader and round, default 5)
# Environment: GESTURED_BIN (the gestured to measure; default .build/debug's),
# GESTURED_BASELINE_BIN (optional: a second build measured in the same guest
# run, reported as "before"), GESTURED_FLOOR_SPIN=N (optional: the floor again
# with N turns of a 6-instruction loop before each write, reported as "spin":
# what hot instructions cost a hop under the emulator), GESTURED_FLOOR_CALLS=1
# (optional: the floor again making 256 calls from distinct call sites before
# each write, "calls", and 64 to functions a page apart, "pages": what a call
# site and a code page cost a hop once per wake-up; DESIGN.md "Performance principles").
#
# latency = the moment libinput delivers a touch event - the moment the player
# wrote its frame into the touchscreen's node (the kernel stamps it then), the
# frame matched by its x. Every reader is libinput (its C library); the clone
# adds the daemon's hop (read, plan, uinput write), the floor a bare C copy
# of every read into a uinput clone (latency-clone-floor). Software emulation
# inflates the absolute figures. The latency benchmark's bare reader and relay
# (run.sh) read a fresh touchscreen in the same rounds: the relay's addition
# to the reader is issue 13's yardstick (one hop), printed with the ratio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
"$repo/scripts/vm/setup.sh"
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-touch-player" "$here/touch-player.c"
cc -O2 -Wall -Wextra -o "$bin/latency-touch-libinput" "$here/touch-libinput.c" $(pkg-config --cflags --libs libinput) -lm
cc -O2 -Wall -Wextra -o "$bin/latency-clone-floor" "$here/clone-floor.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-floor" "$here/floor.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-relay" "$here/relay.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-now" "$here/now.c"
export GESTURED_BIN=${GESTURED_BIN:-$repo/.build/debug/gestured}
readers=8
[ -n "${GESTURED_BASELINE_BIN:-}" ] && readers=$((readers + 2))
[ -n "${GESTURED_FLOOR_SPIN:-}" ] && readers=$((readers + 2))
[ -n "${GESTURED_FLOOR_CALLS:-}" ] && readers=$((readers + 4))
out=$("$repo/scripts/vm/run.sh" --timeout "${GESTURED_VM_TIMEOUT:-$((120 + rounds * readers * 25))}" "$here/clone-guest.sh" "$bin" "$rounds")
echo "$out"
echo "$out" | awk '$2 == "samples" && NF >= 7 { p50[$1] = $5; p99[$1] = $7 }
	END {
		n = split("floor spin calls pages clone before", r, " ")
		for (i = 1; i <= n; i++) {
			if (!(p50[r[i]] && p50["direct"])) continue
			printf "%s adds p50 %d us, p99 %d us to direct libinput (hop alone p50 %d, p99 %d)\n", r[i],
				p50[r[i]] - p50["direct"], p99[r[i]] - p99["direct"], p50[r[i] ".hop"], p99[r[i] ".hop"]
		}
		# the calibration: each call site, each page, once per wake-up (clone-floor.c)
		if (p50["calls.hop"] && p50["floor.hop"])
			printf "a distinct call site costs the hop p50 %.2f us (256 calls: +%d us)\n", (p50["calls.hop"] - p50["floor.hop"]) / 256, p50["calls.hop"] - p50["floor.hop"]
		if (p50["pages.hop"] && p50["floor.hop"])
			printf "a call to a function on its own page costs the hop p50 %.2f us (64 calls: +%d us)\n", (p50["pages.hop"] - p50["floor.hop"]) / 64, p50["pages.hop"] - p50["floor.hop"]
		if (p50["clone"] && p50["floor"])
			printf "clone over the floor: p50 +%d us, p99 +%d us\n", p50["clone"] - p50["floor"], p99["clone"] - p99["floor"]
		# issue 13: the clone adds no more than the relay of the latency benchmark adds to its
		# bare reader (one hop), both measured in this guest run
		if (p50["relay"] && p50["reader"] && p50["clone"] && p50["direct"]) {
			rp50 = p50["relay"] - p50["reader"]; rp99 = p99["relay"] - p99["reader"]
			cp50 = p50["clone"] - p50["direct"]; cp99 = p99["clone"] - p99["direct"]
			printf "relay adds p50 %d us, p99 %d us to the bare reader (one hop, this guest run)\n", rp50, rp99
			printf "clone addition / relay addition: p50 %.2f, p99 %.2f (goal <= 1: %s, %s)\n", cp50 / rp50, cp99 / rp99,
				cp50 <= rp50 ? "met" : "not met", cp99 <= rp99 ? "met" : "not met"
		}
	}'
