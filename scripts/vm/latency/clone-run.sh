#!/usr/bin/env bash
# Latency through gestured's clone of a grabbed touchscreen (Grab=yes) against
# libinput reading the touchscreen directly, in the kernel tier's guest. A
# benchmark: it prints figures, asserts nothing.
#
# Usage: scripts/vm/latency/clone-run.sh [ROUNDS]   (a 2 s drag a round, default 5)
#
# latency = the moment libinput delivers a touch event - the moment the player
# wrote its frame into the touchscreen's node (the kernel stamps it then), the
# frame matched by its x. Both readers are libinput (its C library); the clone
# adds the daemon's hop (read, engine, plan, uinput write). Compare with the
# relay of scripts/vm/latency/run.sh, the floor of any extra hop. Software
# emulation inflates the absolute figures. Needs `swift build` first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
"$repo/scripts/vm/setup.sh"
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-touch-player" "$here/touch-player.c"
cc -O2 -Wall -Wextra -o "$bin/latency-touch-libinput" "$here/touch-libinput.c" $(pkg-config --cflags --libs libinput) -lm
out=$("$repo/scripts/vm/run.sh" --timeout $((120 + rounds * 40)) "$here/clone-guest.sh" "$bin" "$rounds")
echo "$out"
echo "$out" | awk '$2 == "samples" && NF >= 7 { p50[$1] = $5; p99[$1] = $7 }
	END { if (p50["direct"] && p50["clone"])
		printf "clone adds p50 %d us, p99 %d us (clone/direct p50 %.2f, p99 %.2f)\n",
			p50["clone"] - p50["direct"], p99["clone"] - p99["direct"],
			p50["clone"] / p50["direct"], p99["clone"] / p99["direct"] }'
