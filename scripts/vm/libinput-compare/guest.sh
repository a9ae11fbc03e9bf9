#!/bin/sh
# Guest script (scripts/vm/run.sh): libinput and gestured side by side on
# uinput touchpads made from real device descriptions. For each description,
# COUNT seeded random gestures (gestures.awk: 1-3-finger taps, two-finger
# scrolls, 3/4-finger swipes in four directions, pinches in and out,
# three-finger holds; random speeds, landing and lifting stagger 0-40 ms,
# pressure profiles) are synthesized by `gesturectl synthesize` for that
# device, played onto it with evemu-play in real time, and read at once by
#   libinput debug-events --enable-tap
#   gestured --dry-run NODE --json --config config/gestured.conf     (shipped)
#   gesturectl record NODE                                           (kernel times)
# and, once the device is gone, what the kernel delivered (gesturectl record)
# is replayed with --config config/evaluation.conf (evaluation).
# then compared burst by burst (compare.awk, which documents the outcome
# vocabulary and prints the facts).
#
# Usage: guest.sh COUNT SEED DESC...
# With GESTURED_COMPARE_GESTURES=FILE, every description plays FILE's lines
# (gesturectl synthesize lines; # comments) instead of random ones (COUNT and
# SEED are then not used).
# The gestures of the k-th description (from 1) use seed SEED + k - 1, so a
# description's list is the same whichever others run with it.
# Before each description's facts: `device <slug> <k> <path>`. A device that
# cannot report four fingers (no BTN_TOOL_QUADTAP) gets three-finger gestures
# where four were drawn.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
count=${1:?usage: guest.sh COUNT SEED DESC...}
seed=${2:?usage: guest.sh COUNT SEED DESC...}
shift 2
here=$GESTURED_REPO/scripts/vm/libinput-compare
gesturectl=$(vm_tool gesturectl)
gestured=$(vm_tool gestured)

vm_start_udevd || exit 1
index=0
for desc in "$@"; do
	index=$((index + 1))
	slug=$(basename "$desc" | sed 's/\.[a-z]*$//' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
	echo "device $slug $index $desc"
	work=$VM_SCRATCH/$slug
	mkdir -p "$work"
	# The most fingers the device can report: BTN_TOOL_QUADTAP (335) is bit 7
	# of the EV_KEY bitmask's byte 41 (the second of its sixth "B: 01" line).
	quad=$(awk '$1 == "B:" && $2 == "01" && ++n == 6 { print $4 }' "$desc")
	fingers=3
	[ $((0x${quad:-00} & 0x80)) -ne 0 ] && fingers=4
	if [ -n "${GESTURED_COMPARE_GESTURES:-}" ]; then
		grep -v '^#' "$GESTURED_COMPARE_GESTURES" | grep . > "$work/gestures"
	else
		awk -v count="$count" -v seed=$((seed + index - 1)) -v maxFingers=$fingers -v desc="$desc" \
			-f "$here/gestures.awk" > "$work/gestures"
	fi
	awk -v slug="$slug" '{ print "script", slug, NR, $0 }' "$work/gestures"
	"$gesturectl" synthesize "$work/gestures" --device "$desc" > "$work/played.evemu" || exit 1

	vm_create_device "$desc" || exit 1
	node=$VM_NODE
	# GESTURED_COMPARE_LIBINPUT_VERBOSE=1: libinput's state machines' transitions
	# too (debug-events --verbose), for reading a disagreement's cause.
	stdbuf -oL libinput debug-events --enable-tap ${GESTURED_COMPARE_LIBINPUT_VERBOSE:+--verbose} \
		--device "$node" > "$work/libinput.txt" 2>&1 &
	VM_LIBINPUT_PID=$!
	"$gestured" --dry-run "$node" --json --config "$GESTURED_REPO/config/gestured.conf" \
		> "$work/shipped.json" 2> "$work/shipped.log" &
	shipped_pid=$!
	"$gesturectl" record "$node" > "$work/kernel.evemu" 2> /dev/null &
	record_pid=$!
	vm_wait_until 30 "libinput to open $node" vm_has_open "$VM_LIBINPUT_PID" "$node" &&
		vm_wait_until 30 "gestured (shipped) to announce $node" vm_file_has "$work/shipped.json" '"type":"device_added"' &&
		vm_wait_until 30 "gesturectl record to open $node" vm_has_open "$record_pid" "$node" ||
		{ cat "$work/libinput.txt" "$work/shipped.log" >&2; exit 1; }

	# Each frame at its absolute deadline (play.c, built by run.sh), with how
	# late each burst went out in player.txt, and each burst the host stalled
	# (its frames' kernel timestamps, read back, more than
	# GESTURED_COMPARE_STALL_MS off the recording's) played again, at most
	# GESTURED_COMPARE_RETRIES times; evemu-play (relative sleeps, lateness
	# adds up, nothing replayed) when the player is not there.
	if [ -x "${GESTURED_COMPARE_PLAYER:-}" ]; then
		"$GESTURED_COMPARE_PLAYER" -s "${GESTURED_COMPARE_STALL_MS:-25}" -r "${GESTURED_COMPARE_RETRIES:-3}" \
			"$node" "$work/played.evemu" "$work/player.txt" || exit 1
	else
		vm_play "$node" "$work/played.evemu" || exit 1
		: > "$work/player.txt"
	fi
	# The pad stays plugged in after the last lift, as between any two bursts
	# (about 0.6 s apart): removing it at once cancels what a reader still
	# decides after the lift (gestured's 40 ms lift debounce, a tap waiting for
	# the landing to settle), so the last burst would read "none" for the
	# shipped daemon only, never for the replayed evaluation one.
	sleep 1
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 15 "$shipped_pid" > /dev/null
	vm_wait_exit 15 "$record_pid" > /dev/null
	vm_libinput_stop "$work/libinput.txt" || exit 1
	# The evaluation configuration reads what the kernel delivered, replayed
	# once the device is gone (a replay gives exactly the live gestures:
	# RecordReplayTests), so that only three readers compete for the guest's
	# one emulated CPU while the gestures are played.
	"$gestured" --replay "$work/kernel.evemu" --json --config "$GESTURED_REPO/config/evaluation.conf" \
		> "$work/evaluation.json" 2> "$work/evaluation.log" || exit 1

	awk -v device="$slug" -f "$here/compare.awk" "$work/gestures" "$work/kernel.evemu" \
		"$work/libinput.txt" "$work/shipped.json" "$work/evaluation.json" "$work/played.evemu" "$work/player.txt"
	mkdir -p "$GESTURED_VM_OUT/$slug"
	cp "$work"/* "$GESTURED_VM_OUT/$slug/"
done
