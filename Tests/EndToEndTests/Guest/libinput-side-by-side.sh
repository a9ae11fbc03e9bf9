#!/bin/sh
# Guest script (scripts/vm/run.sh): gestured and libinput side by side on the
# same uinput clickpad, for COUNT randomized touchpad gestures (three- and
# four-finger swipes, pinches in and out, two- and three-finger taps,
# three-finger holds with random directions, distances, speeds, spans and
# places; SEED makes the list reproducible). Both read the device at once:
# `libinput debug-events --enable-tap` and `gestured --dry-run --json`, with
# `gesturectl record` alongside for the kernel time of the first event.
#
# Usage: libinput-side-by-side.sh COUNT SEED
#
# Every reported gesture is put in the touch burst (fingers down to the next
# burst) it happened in, and each burst gets one label per reader:
#   swipe <fingers> <left|right|up|down>, pinch <in|out>, tap <fingers>,
#   hold <fingers>, none
# (a burst's swipe or pinch wins over a tap, a tap over a hold: libinput
# begins pinches and taps as holds).
#
# Output, one fact a line (parsed by LibinputSideBySideTests.swift):
#   script <k> <gesturectl synthesize line>
#   expected <k> <label>            what the script line is
#   libinput <k> <label>
#   gestured <k> <label>
#   agreement <agreeing> <bursts>   libinput against gestured
#   disagreement <k> | <script line> | libinput: <label> | gestured: <label>
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
count=${1:?usage: libinput-side-by-side.sh COUNT SEED}
seed=${2:?usage: libinput-side-by-side.sh COUNT SEED}
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/logitech-t650.desc
compare=$GESTURED_REPO/Tests/EndToEndTests/Guest/side-by-side.awk

script=$VM_SCRATCH/side-by-side.gestures
awk -v count="$count" -v seed="$seed" 'BEGIN {
	srand(seed)
	split("left right up down", dirs, " ")
	for (k = 1; k <= count; k++) {
		r = rand()
		x = 0.4 + rand() * 0.2; y = 0.4 + rand() * 0.2
		if (r < 0.45)
			printf "swipe fingers=%d direction=%s distance=%.0f duration=%.2f\n",
				rand() < 0.5 ? 3 : 4, dirs[int(rand() * 4) + 1], 25 + rand() * 30, 0.15 + rand() * 0.3
		else if (r < 0.7)
			printf "pinch fingers=2 scale=%.2f span=%.0f duration=%.2f x=%.2f y=%.2f\n",
				rand() < 0.5 ? 0.4 + rand() * 0.25 : 1.6 + rand() * 0.8, 30 + rand() * 20, 0.3 + rand() * 0.4, x, y
		else if (r < 0.85)
			printf "tap fingers=%d x=%.2f y=%.2f\n", rand() < 0.5 ? 2 : 3, x, y
		else
			printf "long-press fingers=3 duration=%.2f x=%.2f y=%.2f\n", 0.8 + rand() * 0.4, x, y
	}
}' > "$script"
awk '{ print "script", NR, $0 }' "$script"

recording=$VM_SCRATCH/side-by-side.evemu
"$(vm_tool gesturectl)" synthesize "$script" --device "$desc" > "$recording" || exit 1

vm_start_udevd || exit 1
vm_create_device "$desc" || exit 1
node=$VM_NODE
libinput=$VM_SCRATCH/libinput.txt
gestured=$VM_SCRATCH/gestured.json
kernel=$VM_SCRATCH/kernel.evemu
stdbuf -oL libinput debug-events --enable-tap --device "$node" > "$libinput" 2>&1 &
libinput_pid=$!
VM_LIBINPUT_PID=$libinput_pid
"$(vm_tool gestured)" --dry-run "$node" --json > "$gestured" 2> "$gestured.log" &
gestured_pid=$!
"$(vm_tool gesturectl)" record "$node" > "$kernel" 2> /dev/null &
record_pid=$!
vm_wait_until 30 "libinput to open $node" vm_has_open "$libinput_pid" "$node" &&
	vm_wait_until 30 "gestured to announce $node" vm_file_has "$gestured" '"type":"device_added"' &&
	vm_wait_until 30 "gesturectl record to open $node" vm_has_open "$record_pid" "$node" ||
	{ cat "$libinput" "$gestured.log" >&2; exit 1; }

vm_play "$node" "$recording" || exit 1
vm_remove_device "$VM_DEVICE_PID"
vm_wait_exit 15 "$gestured_pid" > /dev/null
vm_wait_exit 15 "$record_pid" > /dev/null
vm_libinput_stop "$libinput" || exit 1

awk -f "$compare" "$script" "$kernel" "$libinput" "$gestured"
cp "$libinput" "$gestured" "$kernel" "$GESTURED_VM_OUT/"
