#!/bin/sh
# Guest script (scripts/vm/run.sh): `gestured --dry-run NODE --json` on the
# project's touchscreen and clickpad while scripted touches are played onto
# them with real timing. gestured runs from the host's build over 9p
# ($GESTURED_BIN, else .build/debug/gestured of the checkout; see vm_tool).
#
# Output, one fact a line (parsed by GesturedDryRunTests.swift):
#   <device> node /dev/input/eventN
#   <device> json {...}          each line gestured printed, in order
#   <device> exit N              gestured's exit status once the device is gone
#                                (124: it had not exited 15 s later)
# gestured's stderr goes to stderr. Exit status: 0 when the guest side worked.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
gestured=$(vm_tool gestured)
[ -x "$gestured" ] || { vm_log "no gestured binary at $gestured (swift build first)"; exit 1; }

vm_start_udevd || exit 1

# run_device NAME DESC GESTURE...: one device, one recording, gestured watching.
run_device() {
	name=$1 desc=$2
	shift 2
	recording=$(vm_synth "$desc" "$@") || return 1
	vm_create_device "$desc" || return 1
	node=$VM_NODE
	echo "$name node $node"

	watch_start "$name" "$node" || return 1
	vm_play "$node" "$recording" || { vm_log "evemu-play failed on $node"; return 1; }
	# evemu-play is done when the kernel has the events, not when gestured has read
	# them, and a removed device's unread events are lost (evdev's read answers ENODEV
	# before its queue): under load gestured is still frames behind here, and an
	# unplug now would cut the last gesture short (a pinch cancelled at the unplug).
	# So the device stays until gestured has ended each scripted gesture (one final
	# state each), however long the guest takes; a gesture that never ends shows up
	# in the test as what gestured did print.
	vm_wait_until 60 "gestured to end the $# gestures on $node" \
		vm_file_at_least "$json" "$#" '"state":"(recognized|ended|cancelled)"' ||
		vm_log "unplugging $node anyway"
	watch_end "$name"
}

# vm_file_at_least FILE N PATTERN: whether FILE has at least N lines matching PATTERN.
vm_file_at_least() { [ "$(vm_count "$1" "$3")" -ge "$2" ]; }

# watch_start NAME NODE: starts gestured --dry-run on NODE and returns once it has
# announced the device (before that, events would reach nobody). Sets json, log, pid.
watch_start() {
	json=$VM_SCRATCH/$1.json
	log=$VM_SCRATCH/$1.stderr
	: > "$json"
	"$gestured" --dry-run "$2" --json > "$json" 2> "$log" &
	pid=$!
	vm_wait_until 30 "gestured to announce $2" vm_file_has "$json" '"type":"device_added"' ||
		{ cat "$log" >&2; return 1; }
}

# watch_end NAME: removes the device, which ends the dry run (gestured exits by
# itself), and prints what gestured printed.
watch_end() {
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 15 "$pid"
	status=$?
	sed "s/^/$1 json /" "$json"
	echo "$1 exit $status"
	sed "s/^/gestured ($1): /" "$log" >&2
}

# run_resting NAME DESC: a finger lands on a fresh device and rests there before gestured
# opens it; once gestured has announced the device, the finger lifts. The kernel sends only
# changes, so gestured knows the finger only from the state it reads at open.
run_resting() {
	name=$1 desc=$2
	vm_create_device "$desc" || return 1
	node=$VM_NODE
	echo "$name node $node"
	down=$VM_SCRATCH/$name-down.events
	up=$VM_SCRATCH/$name-up.events
	# slot 0, tracking id 7, at (1500, 900) units: (150, 90) mm at 10 units/mm
	printf '%s\n' 'E: 0.000000 0003 002f 0' 'E: 0.000000 0003 0039 7' 'E: 0.000000 0003 0035 1500' \
		'E: 0.000000 0003 0036 900' 'E: 0.000000 0001 014a 1' 'E: 0.000000 0003 0000 1500' \
		'E: 0.000000 0003 0001 900' 'E: 0.000000 0000 0000 0' > "$down"
	printf '%s\n' 'E: 0.000000 0003 002f 0' 'E: 0.000000 0003 0039 -1' 'E: 0.000000 0001 014a 0' \
		'E: 0.000000 0000 0000 0' > "$up"
	vm_play "$node" "$down" || { vm_log "evemu-play failed on $node"; return 1; }
	watch_start "$name" "$node" || return 1
	vm_play "$node" "$up" || { vm_log "evemu-play failed on $node"; return 1; }
	# the tap waits for the double tap to fail: let gestured decide before the unplug
	vm_wait_until 10 "gestured to report the resting finger" vm_file_has "$json" '"type":"gesture"' ||
		vm_log "no gesture from the resting finger"
	watch_end "$name"
}

status=0
run_resting resting "$devices/elan-touchscreen.desc" || status=1
run_device touchscreen "$devices/elan-touchscreen.desc" \
	"tap fingers=1" "tap fingers=2" "swipe fingers=3 direction=right" || status=1
run_device clickpad "$devices/logitech-t650.desc" \
	"swipe fingers=3 direction=up" "swipe fingers=4 direction=left" "pinch fingers=2 scale=2" || status=1
exit $status
