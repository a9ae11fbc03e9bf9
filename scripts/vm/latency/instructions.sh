#!/usr/bin/env bash
# Instructions a frame costs user space on the real device path, in the
# kernel tier's guest: the daemon and its socket client against the relay
# (a bare reader forwarding each frame over a Unix socket, and its
# receiver), counted by callgrind, so load cannot blur them. A benchmark: it
# prints figures and asserts nothing; instructions-guest.sh says how.
#
# Also prints the calls and distinct call sites a frame of each (the figure
# the emulator's CPU time follows: DESIGN.md "Performance principles").
# Usage: scripts/vm/latency/instructions.sh   (GESTURED_BIN names the build,
# as for run.sh; GESTURED_CALLGRIND_TOP=K prints the daemon's K costliest
# functions; GESTURED_CALLGRIND_OUT=DIR keeps the guest's output and the
# profiles there, else a new directory under /tmp, printed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
"$repo/scripts/vm/setup.sh"
command -v valgrind > /dev/null || { echo "instructions: valgrind is missing (scripts/setup-deps.sh)" >&2; exit 1; }
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-relay" "$here/relay.c" $(pkg-config --cflags --libs libevdev)
cc -O2 -Wall -Wextra -o "$bin/latency-client" "$here/client.c"
# the profiles stay in DIR/callgrind for callgrind_annotate
vmout=${GESTURED_CALLGRIND_OUT:-$(mktemp -d /tmp/gestured-instructions.XXXXXX)}
out=$("$repo/scripts/vm/run.sh" --out "$vmout" --timeout "${GESTURED_VM_TIMEOUT:-1200}" "$here/instructions-guest.sh" "$bin")
echo "$out"
echo "profiles: $vmout/callgrind"
echo "$out" | awk '$1 == "instructions" { n[$2] = $4 } $1 == "calls" { c[$2] = $4; s[$2] = $6 } END {
	if (n["relay"] && n["gestured"])
		printf "instructions per frame: daemon + client %d, relay (both processes) %d: %.2fx\n",
			n["gestured"] + n["client"], n["relay"], (n["gestured"] + n["client"]) / n["relay"]
	if (s["relay"] && s["gestured"])
		printf "distinct call sites per frame: daemon + client %d, relay (both processes) %d: %.2fx (calls %d and %d)\n",
			s["gestured"] + s["client"], s["relay"], (s["gestured"] + s["client"]) / s["relay"], c["gestured"] + c["client"], c["relay"] }'
