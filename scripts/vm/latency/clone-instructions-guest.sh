#!/bin/sh
# Guest script of scripts/vm/latency/clone-instructions.sh: the instructions
# the clone's hop costs, counted by valgrind's callgrind (a count: the host's
# load does not blur it). The latency benchmark's drag (clone-guest.sh: a
# one-finger drag on the ELAN touchscreen) is played on a touchscreen grabbed
# by, in turn:
#   floor     latency-clone-floor (a bare C copy of every read into a uinput
#             clone: the floor of one hop);
#   gestured  the daemon ($GESTURED_BIN) with Grab=yes.
# Each runs under callgrind with collection off; one unmeasured drag, then
# instrumentation on (callgrind_control) for one drag, then off. The profiles
# go to $GESTURED_VM_OUT/callgrind (floor.PID, gestured.PID); the host's
# script reads them. Prints "frames N" and "resyncs N".
# Usage: clone-instructions-guest.sh BINDIR
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/elan-touchscreen.desc
drag=$(vm_synth "$desc" "drag fingers=1 x=0.1 y=0.5 to-x=0.9 to-y=0.5 duration=2") || exit 1
drag=$(vm_callgrind_slowed "$drag") || exit 1
frames=$(grep -c '^E: [0-9.]* 0000 0000 0000' "$drag")
vm_callgrind_scratch
out=$VM_CALLGRIND_OUT
prefix=$VM_VGDB_PREFIX
vm_start_udevd || exit 1

# measure PID: the unmeasured drag, then one drag collected in PID
measure() {
	vm_play "$source" "$drag" || return 1
	callgrind_control "$prefix" -i on "$1" > /dev/null || return 1
	vm_play "$source" "$drag" || return 1
	# the last frames reach the reader after the player is done
	sleep 2
	callgrind_control "$prefix" -i off "$1" > /dev/null
}

find_clone() {
	for _d in /sys/class/input/event*; do
		[ "$(cat "$_d/device/phys" 2>/dev/null)" = "gestured-clone/$(basename "$source")" ] && return 0
	done
	return 1
}

vm_create_device "$desc" || exit 1
source=$VM_NODE

# the floor
valgrind --tool=callgrind "$prefix" --instr-atstart=no --callgrind-out-file="$out/floor.%p" \
	"$bin/latency-clone-floor" "$source" > "$VM_SCRATCH/floor.node" 2> "$VM_SCRATCH/floor.err" &
floor=$!
vm_wait_until 120 "latency-clone-floor's clone" sh -c "[ -s '$VM_SCRATCH/floor.node' ]" || { cat "$VM_SCRATCH/floor.err" >&2; exit 1; }
vm_settle
measure "$floor" || exit 1
kill "$floor"
vm_wait_exit 120 "$floor" > /dev/null

# the daemon, grabbing the touchscreen
confdir=$VM_SCRATCH/grab-config
mkdir -p "$confdir/conf.d"
cp "$GESTURED_REPO/config/gestured.conf" "$confdir/gestured.conf"
printf '[Device touchscreens]\nMatchKind=touchscreen\nGrab=yes\n' > "$confdir/conf.d/grab.conf"
GESTURED_READY_TIMEOUT=300 GESTURED_WRAPPER="valgrind --tool=callgrind $prefix --instr-atstart=no --callgrind-out-file=$out/gestured.%p" \
	vm_daemon_start --config "$confdir/gestured.conf" || exit 1
vm_wait_until 120 "the daemon's clone" find_clone || { cat "$VM_SCRATCH/daemon.log" >&2; exit 1; }
vm_settle
measure "$VM_DAEMON_PID" || exit 1
kill -TERM "$VM_DAEMON_PID"
vm_wait_exit 600 "$VM_DAEMON_PID" > /dev/null || exit 1

echo "frames $frames"
echo "resyncs $(grep -c 'SYN_DROPPED\|lost events' "$VM_SCRATCH/daemon.log" 2> /dev/null || true)"
exit 0
