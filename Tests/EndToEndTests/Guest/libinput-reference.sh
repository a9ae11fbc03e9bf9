#!/bin/sh
# Guest script (scripts/vm/run.sh): proves the kernel tier's plumbing with
# libinput as the reader. Creates the project's touchscreen and clickpad from
# their descriptions, lets systemd-udevd classify them, plays scripted
# touches onto each with real timing and reports what came back through the
# kernel: the tracking ids evemu-record saw, and libinput's events.
#
# Output, one fact a line (parsed by KernelTierTests.swift):
#   <device> node /dev/input/eventN
#   <device> udev ID_INPUT_TOUCHSCREEN=1 ...     udev's input classification and
#                                                the project rules' GESTURED_DEVICE
#   <device> kernel-contacts N                   new tracking ids on the node
#   <device> libinput <EVENT> N                  count of each libinput event
#   <device> gesture <KIND> <FINGERS>            each GESTURE_*_BEGIN, in order
# Exit status: 0 when the guest side worked; the assertions are the caller's.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices

vm_start_udevd || exit 1

# run_device NAME DESC GESTURE...: one device, one recording, both readers.
run_device() {
	name=$1 desc=$2
	shift 2
	recording=$(vm_synth "$desc" "$@") || return 1
	vm_create_device "$desc" || return 1
	node=$VM_NODE
	echo "$name node $node"
	echo "$name udev $(udevadm info --query=property --name="$node" |
		grep -E '^(ID_INPUT(_TOUCHSCREEN|_TOUCHPAD|_WIDTH_MM|_HEIGHT_MM)?|GESTURED_DEVICE)=' |
		sort | tr '\n' ' ')"

	kernel=$VM_SCRATCH/$name.evemu-record
	stdbuf -oL evemu-record "$node" > "$kernel" 2>&1 &
	record_pid=$!
	vm_wait_until 10 "evemu-record to open $node" vm_has_open "$record_pid" "$node" || return 1
	events=$VM_SCRATCH/$name.libinput
	vm_libinput_start "$node" "$events" || return 1

	started=$(vm_now_ms)
	vm_play "$node" "$recording" || { vm_log "evemu-play failed on $node"; return 1; }
	vm_log "$name: played $(grep -c '^E:' "$recording") events in $(($(vm_now_ms) - started)) ms"
	vm_remove_device "$VM_DEVICE_PID"
	# evemu-record stops by itself when the node goes away
	wait "$record_pid"
	vm_libinput_stop "$events" || { cat "$events" >&2; return 1; }

	# ABS_MT_TRACKING_ID is code 0039; evemu-record writes "-001" when a
	# contact ends and a zero-padded id when one begins
	echo "$name kernel-contacts $(grep -cE '^E: [0-9.]+ 0003 0039 [0-9]' "$kernel")"
	awk -v name="$name" '$2 ~ /^GESTURE_.*_BEGIN$/ {
		kind = $2; sub(/^GESTURE_/, "", kind); sub(/_BEGIN$/, "", kind)
		print name, "gesture", kind, $NF
	}' "$events"
	awk -v name="$name" '$2 ~ /^[A-Z_]+$/ { count[$2]++ }
		END { for (e in count) print name, "libinput", e, count[e] }' "$events" | sort
}

status=0
# six contacts: one tap, a two-finger tap, a three-finger swipe
run_device touchscreen "$devices/elan-touchscreen.desc" \
	"tap fingers=1" "tap fingers=2" "swipe fingers=3 direction=right" || status=1
# touchpad gestures as libinput sees them
run_device clickpad "$devices/logitech-t650.desc" \
	"swipe fingers=3 direction=up" "swipe fingers=4 direction=left" "pinch fingers=2 scale=2" || status=1
exit $status
