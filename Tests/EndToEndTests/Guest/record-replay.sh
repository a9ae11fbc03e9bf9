#!/bin/sh
# Guest script (scripts/vm/run.sh): recordings made on a live device replay
# to the same gestures. For each device, three readers open it at once:
# `gestured --dry-run NODE --json` (the live run), `gesturectl record NODE`
# and `libinput record NODE` (the only place libinput-record files can come
# from); the device's gestures are played, the device is removed, and both
# recordings go through `gestured --replay FILE --json`.
#
# Usage: record-replay.sh DEVICE...   DEVICE: touchscreen | clickpad | touchscreen-used
#
# touchscreen-used: the touchscreen is used (the first gesture played once)
# before the readers open it, so the recorded first touch lands where its
# slot's last one was and the kernel sends no X or Y for it: the recording
# must carry the slots' last values (libinput record does not; only
# gesturectl record is checked there).
#
# Output, one fact a line (parsed by RecordReplayTests.swift):
#   <device> node /dev/input/eventN
#   <device> <source> exit N        source: live, gesturectl-replay, libinput-replay
#   <device> <source> json {...}    each line gestured printed
# The recordings are kept in $GESTURED_VM_OUT/<device>.{evemu,yml}.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
gestured=$(vm_tool gestured)
gesturectl=$(vm_tool gesturectl)

# live_outcomes FILE: how many gestures FILE (gestured --json) has seen to
# their end (a discrete gesture recognized, a continuous one ended/cancelled).
live_outcomes() {
	grep -E '"state":"(recognized|ended|cancelled)"' "$1" | grep -o '"gesture_id":"[^"]*"' | sort -u | wc -l
}
# live_has_outcomes FILE N: FILE has seen at least N gestures to their end.
live_has_outcomes() { [ "$(live_outcomes "$1")" -ge "$2" ]; }
# lifts FILE: the contacts an evemu recording lifts (ABS_MT_TRACKING_ID -1;
# the kernel passes every one on, unlike repeated values and empty frames).
lifts() { grep -c '^E: [0-9.]* 0003 0039 -001' "$1"; }
# has_lifts FILE N: the evemu recording FILE lifts at least N contacts and
# ends with a whole frame.
has_lifts() { [ "$(lifts "$1")" -ge "$2" ] && tail -n 1 "$1" | grep -q '^E: [0-9.]* 0000 0000 0000'; }

status=0
for name in "$@"; do
	case $name in
	touchscreen | touchscreen-used)
		desc=$devices/elan-touchscreen.desc
		set -- "double-tap fingers=1" "swipe fingers=2 direction=up" "pinch scale=0.5" \
			"rotation angle=-60" "edge-swipe from=right"
		;;
	clickpad)
		desc=$devices/logitech-t650.desc
		set -- "tap fingers=2" "swipe fingers=3 direction=right" "swipe fingers=4 direction=down" \
			"pinch scale=2" "long-press fingers=3 duration=0.8"
		;;
	*) vm_log "unknown device $name"; status=1; continue ;;
	esac
	recording=$(vm_synth "$desc" "$@") || { status=1; continue; }
	vm_create_device "$desc" || { status=1; continue; }
	node=$VM_NODE
	echo "$name node $node"
	with_libinput=yes
	if [ "$name" = touchscreen-used ]; then
		with_libinput=no
		used=$(vm_synth "$desc" "$1") || { status=1; continue; }
		vm_play "$node" "$used" || status=1
	fi

	live=$VM_SCRATCH/$name.live
	evemu=$GESTURED_VM_OUT/$name.evemu
	yaml=$GESTURED_VM_OUT/$name.yml
	"$gestured" --dry-run "$node" --json > "$live" 2> "$live.log" &
	live_pid=$!
	"$gesturectl" record "$node" > "$evemu" 2> "$evemu.log" &
	record_pid=$!
	libinput_pid=
	if [ $with_libinput = yes ]; then
		libinput record -o "$yaml" "$node" 2> "$yaml.log" &
		libinput_pid=$!
	fi
	vm_wait_until 30 "gestured to announce $node" vm_file_has "$live" '"type":"device_added"' &&
		vm_wait_until 30 "gesturectl record to open $node" vm_has_open "$record_pid" "$node" &&
		{ [ -z "$libinput_pid" ] || vm_wait_until 30 "libinput record to open $node" vm_has_open "$libinput_pid" "$node"; } ||
		{ cat "$live.log" "$evemu.log" "$yaml.log" >&2; status=1; continue; }

	vm_play "$node" "$recording" || status=1
	# The kernel refuses every read of a removed device (evdev_read: ENODEV
	# before the buffer is looked at), so a reader still behind when the device
	# goes loses the frames it had not read: under load the live gestured lost
	# the tail of the last gesture and cancelled it at the unplug, while both
	# recorders had read it. Unplug only once the live run has seen each
	# played gesture to its end.
	vm_wait_until 30 "the live gestured to see the $# gestures end" live_has_outcomes "$live" $# ||
		{ status=1; vm_log "live gestured saw $(live_outcomes "$live") of $# gestures end"; }
	vm_wait_until 30 "gesturectl record to write every lift played" has_lifts "$evemu" "$(lifts "$recording")" ||
		{ status=1; vm_log "gesturectl record wrote $(lifts "$evemu") of $(lifts "$recording") lifts"; }
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 15 "$live_pid"
	echo "$name live exit $?"
	vm_wait_exit 15 "$record_pid" > /dev/null || status=1
	# libinput record keeps going after the device is gone; SIGINT ends it
	# and writes out the file
	sources=gesturectl-replay:$evemu
	if [ -n "$libinput_pid" ]; then
		kill -INT "$libinput_pid"
		vm_wait_exit 15 "$libinput_pid" > /dev/null
		sources="$sources libinput-replay:$yaml"
	fi
	grep -v '^$' "$live" | sed "s/^/$name live json /"

	for source in $sources; do
		file=${source#*:}
		source=${source%%:*}
		replayed=$VM_SCRATCH/$name.$source
		"$gestured" --replay "$file" --json > "$replayed" 2> "$replayed.log"
		echo "$name $source exit $?"
		grep -v '^$' "$replayed" | sed "s/^/$name $source json /"
		sed "s/^/gestured --replay ($name, $source): /" "$replayed.log" >&2
	done
done
exit $status
