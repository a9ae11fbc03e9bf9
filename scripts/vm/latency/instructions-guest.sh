#!/bin/sh
# Guest script of scripts/vm/latency/instructions.sh: the instructions a
# frame costs user space on the real device path (a uinput T650, the latency
# benchmark's gestures), counted by valgrind's callgrind (a count, so the
# host's load does not blur it), for the daemon and its socket client and
# for the relay (the bare reader forwarding each frame over a Unix socket,
# and its receiving child). Each runs under callgrind with collection off;
# one unmeasured cycle, then instrumentation on (callgrind_control) for one
# cycle, then off. Prints "instructions <who> per-frame N", "calls <who>
# per-frame C sites S" (calls, and distinct call sites, a frame:
# scripts/callgrind-calls.awk) and, with
# GESTURED_CALLGRIND_TOP=K, the daemon's K costliest functions (exclusive).
# Usage: instructions-guest.sh BINDIR
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/logitech-t650.desc
cycle=$(vm_synth "$desc" "swipe fingers=3 direction=left
swipe fingers=4 direction=up
pinch scale=2
pinch scale=0.5") || exit 1
cycle=$(vm_callgrind_slowed "$cycle") || exit 1
frames=$(grep -c '^E: [0-9.]* 0000 0000 0000' "$cycle")
vm_callgrind_scratch
out=$VM_CALLGRIND_OUT
prefix=$VM_VGDB_PREFIX
vm_start_udevd || exit 1

# measure WHO PID...: the unmeasured cycle, then one cycle collected in PIDs
measure() {
	_who=$1
	shift
	vm_play "$VM_NODE" "$cycle" || return 1
	for _p in "$@"; do callgrind_control "$prefix" -i on "$_p" > /dev/null || return 1; done
	vm_play "$VM_NODE" "$cycle" || return 1
	# the last frames reach the readers after the player is done
	sleep 2
	for _p in "$@"; do callgrind_control "$prefix" -i off "$_p" > /dev/null || return 1; done
}

# the relay: a fresh node, the reader and its receiving child
vm_create_device "$desc" || exit 1
valgrind --tool=callgrind "$prefix" --instr-atstart=no --dump-instr=yes --trace-children=yes \
	--callgrind-out-file="$out/relay.%p" "$bin/latency-relay" "$VM_NODE" > "$VM_SCRATCH/relay.out" 2>&1 &
relay=$!
vm_wait_until 120 "the relay to open $VM_NODE" vm_has_open "$relay" "$VM_NODE" || { cat "$VM_SCRATCH/relay.out" >&2; exit 1; }
sleep 2
measure relay "$relay" $(cat /proc/"$relay"/task/*/children 2>/dev/null) || exit 1
vm_remove_device "$VM_DEVICE_PID"
vm_wait_exit 120 "$relay" > /dev/null

# the daemon under callgrind (GESTURED_BIN's build), and its client
GESTURED_READY_TIMEOUT=300 GESTURED_WRAPPER="valgrind --tool=callgrind $prefix --instr-atstart=no --dump-instr=yes --callgrind-out-file=$out/gestured.%p" \
	vm_daemon_start || exit 1
valgrind --tool=callgrind "$prefix" --instr-atstart=no --dump-instr=yes --callgrind-out-file="$out/client.%p" \
	"$bin/latency-client" "$VM_SOCKET" "$VM_SCRATCH/client.raw" > "$VM_SCRATCH/client.out" 2>&1 &
client=$!
vm_create_device "$desc" || exit 1
vm_wait_until 120 "the daemon to open $VM_NODE" vm_has_open "$VM_DAEMON_PID" "$VM_NODE" || { cat "$VM_SCRATCH/daemon.log" >&2; exit 1; }
measure gestured "$VM_DAEMON_PID" "$client" || exit 1
vm_remove_device "$VM_DEVICE_PID"
vm_wait_exit 120 "$client" > /dev/null
kill -TERM "$VM_DAEMON_PID"
vm_wait_exit 600 "$VM_DAEMON_PID" > /dev/null || exit 1

echo "frames $frames"
echo "messages a cycle $(($(wc -l < "$VM_SCRATCH/client.raw" 2> /dev/null || echo 0) / 2))"
echo "resyncs $(grep -c 'SYN_DROPPED' "$VM_SCRATCH/daemon.log" 2> /dev/null || true)"
# totals: the "totals:" line of each profile (one a process)
for f in "$out"/*; do
	who=$(basename "$f" | cut -d. -f1)
	n=$(awk '/^totals:/ { print $2; exit }' "$f")
	echo "instructions-file $who $(basename "$f") ${n:-0}"
done | awk -v frames="$frames" '{ total[$2] += $4 } END {
	for (w in total) printf "instructions %s per-frame %d\n", w, total[w] / frames }'
# calls and distinct call sites a frame, per process (each pays its own call sites after its
# own context switch), summed per reader: what the emulator charges (callgrind-calls.awk)
for f in "$out"/*; do
	echo "$(basename "$f" | cut -d. -f1) $(awk -v frames="$frames" -f "$GESTURED_REPO/scripts/callgrind-calls.awk" "$f")"
done | awk '{ calls[$1] += $3; sites[$1] += $5 } END {
	for (w in calls) printf "calls %s per-frame %d sites %d\n", w, calls[w], sites[w] }'
if [ -n "${GESTURED_CALLGRIND_TOP:-}" ]; then
	for f in "$out"/gestured.*; do
		callgrind_annotate --threshold=99 "$f" 2> /dev/null | sed -n '/^Ir/,$p' | head -"$((GESTURED_CALLGRIND_TOP + 3))" | sed 's/^/top /'
	done
fi
