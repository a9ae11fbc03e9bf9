#!/bin/sh
# Guest script (scripts/vm/run.sh): Grab=yes (issue 13). The touchscreen is
# grabbed by gestured, and `libinput debug-events` reads the uinput clone as
# a compositor would. Phases:
#   reference  libinput on the source itself, no daemon: a one-finger drag and
#              a two-finger scroll (what applications get without gestured);
#   grab       the daemon with Grab=yes; libinput on the clone and on the
#              source: the same drag and scroll, a three-finger swipe, an edge
#              swipe, a tap in the edge band;
#   sigterm    SIGTERM in the middle of a drag;
#   sigkill    the daemon started again, SIGKILL in the middle of a drag, then
#              a tap read by a fresh libinput on the source.
#
# Output, one fact a line (parsed by GrabCloneTests.swift):
#   clone node /dev/input/eventN | clone phys P | clone name N | clone ids B:V:P
#   source name N | source ids B:V:P
#   <phase>.<what> touch <libinput touch line without node and time>
#   <phase>.<what> count <EVENT> N
#   grab.source-events N           touch events libinput read on the grabbed source
#   sigkill clone-gone yes|no      the clone's node vanished after SIGKILL
#   daemon exit N                  after SIGTERM
#   client json {...}              what the socket client received (grab phase)
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/elan-touchscreen.desc

vm_start_udevd || exit 1

# the shipped configuration, with Grab=yes for touchscreens in a drop-in
confdir=$VM_SCRATCH/grab-config
mkdir -p "$confdir/conf.d"
cp "$GESTURED_REPO/config/gestured.conf" "$confdir/gestured.conf"
printf '[Device touchscreens]\nMatchKind=touchscreen\nGrab=yes\n' > "$confdir/conf.d/grab.conf"

drag=$(vm_synth "$desc" "drag fingers=1 x=0.4 y=0.3 to-x=0.6 to-y=0.6 duration=0.6") || exit 1
scroll=$(vm_synth "$desc" "drag fingers=2 x=0.5 y=0.3 to-x=0.5 to-y=0.7 duration=0.8") || exit 1
swipe3=$(vm_synth "$desc" "swipe fingers=3 direction=right distance=60 duration=0.3") || exit 1
edge=$(vm_synth "$desc" "edge-swipe from=left distance=40") || exit 1
# 1.5 mm from the left edge, inside the edge pans' 5.1 mm start band
edgetap=$(vm_synth "$desc" "tap fingers=1 x=0.005 y=0.5 duration=0.08") || exit 1
# a slow drag down along the left edge, in the band: the edge pan fails once it has moved
edgedrag=$(vm_synth "$desc" "drag fingers=1 x=0.005 y=0.3 to-x=0.005 to-y=0.6 duration=1") || exit 1
long=$(vm_synth "$desc" "drag fingers=1 x=0.3 y=0.5 to-x=0.7 to-y=0.5 duration=4") || exit 1
tap=$(vm_synth "$desc" "tap fingers=1") || exit 1

# touch_lines PHASE FILE FROM: the touch events libinput printed from line
# FROM on, without node and time (positions are all that must agree).
touch_lines() {
	tail -n +"$3" "$2" | awk -v p="$1" '$2 ~ /^TOUCH_/ { $1 = ""; $3 = ""; print p, "touch", $0 }' | tr -s ' '
	tail -n +"$3" "$2" | awk -v p="$1" '$2 ~ /^TOUCH_/ { n[$2]++ } END { for (e in n) print p, "count", e, n[e] }' | sort
}
lines() { wc -l < "$1"; }

# --- reference: libinput on the source, no daemon ---------------------------------------
vm_create_device "$desc" || exit 1
source=$VM_NODE
echo "source name $(cat /sys/class/input/$(basename "$source")/device/name)"
echo "source ids $(cd /sys/class/input/$(basename "$source")/device/id && echo "$(cat bustype):$(cat vendor):$(cat product)")"
ref=$VM_SCRATCH/reference.libinput
vm_libinput_start "$source" "$ref" || exit 1
from=$(($(lines "$ref") + 1))
vm_play "$source" "$drag" || exit 1
vm_wait_until 10 "libinput to see the reference drag end" vm_file_has "$ref" TOUCH_UP || exit 1
touch_lines reference.drag "$ref" "$from"
from=$(($(lines "$ref") + 1))
vm_play "$source" "$scroll" || exit 1
vm_wait_until 10 "libinput to see the reference scroll end" \
	sh -c "[ \$(tail -n +$from '$ref' | grep -c TOUCH_UP) -ge 2 ]" || exit 1
touch_lines reference.scroll "$ref" "$from"
kill "$VM_LIBINPUT_PID"
wait "$VM_LIBINPUT_PID" 2>/dev/null

# find_clone: sets CLONE to the node whose phys is gestured-clone/<source>.
find_clone() {
	CLONE=
	for _d in /sys/class/input/event*; do
		[ "$(cat "$_d/device/phys" 2>/dev/null)" = "gestured-clone/$(basename "$source")" ] &&
			CLONE=/dev/input/$(basename "$_d")
	done
	[ -n "$CLONE" ]
}

# --- grab: the daemon, libinput on the clone and on the source --------------------------
vm_daemon_start --config "$confdir/gestured.conf" ${GESTURED_GRAB_VERBOSE:+--verbose} || exit 1
vm_client_start || exit 1
vm_wait_until 20 "the clone to appear" find_clone || { cat "$VM_SCRATCH/daemon.log" >&2; exit 1; }
vm_settle
cd_=/sys/class/input/$(basename "$CLONE")/device
echo "clone node $CLONE"
echo "clone phys $(cat "$cd_/phys")"
echo "clone name $(cat "$cd_/name")"
echo "clone ids $(cd "$cd_/id" && echo "$(cat bustype):$(cat vendor):$(cat product)")"
echo "clone udev $(udevadm info --query=property --name="$CLONE" | grep -E '^(GESTURED_CLONE|GESTURED_DEVICE|ID_INPUT_TOUCHSCREEN)=' | sort | tr '\n' ' ')"

out=$VM_SCRATCH/clone.libinput
# the clone's raw events, kept for a failing run's diagnosis
stdbuf -oL evemu-record "$CLONE" > "${GESTURED_VM_OUT:-$VM_SCRATCH}/clone.evemu" 2>&1 &
vm_libinput_start "$CLONE" "$out" || exit 1
clone_reader=$VM_LIBINPUT_PID
on_source=$VM_SCRATCH/grabbed-source.libinput
vm_libinput_start "$source" "$on_source" || exit 1
source_reader=$VM_LIBINPUT_PID

# play_and_wait WHAT RECORDING CONDITION...: plays, waits for CONDITION, prints.
play_and_wait() {
	_gesture=$1 _rec=$2
	shift 2
	from=$(($(lines "$out") + 1))
	vm_play "$source" "$_rec" || exit 1
	vm_wait_until 15 "$_gesture on the clone" "$@" || { tail -n +"$from" "$out" >&2; exit 1; }
	touch_lines "grab.$_gesture" "$out" "$from"
}
ups_since() { [ "$(tail -n +"$from" "$out" | grep -c "$1")" -ge "$2" ]; }

play_and_wait drag "$drag" ups_since TOUCH_UP 1
play_and_wait scroll "$scroll" ups_since TOUCH_UP 2
play_and_wait swipe3 "$swipe3" ups_since TOUCH_CANCEL 3
# the edge swipe shows nothing: wait for the daemon to have recognized it, then
# for the edge-band tap, which must reach libinput after it
from=$(($(lines "$out") + 1))
vm_play "$source" "$edge" || exit 1
vm_wait_until 15 "the edge swipe's end on the socket" \
	vm_file_has "$VM_RECEIVED" '"name":"edge-left".*"state":"ended"' || exit 1
touch_lines grab.edge "$out" "$from"
play_and_wait edgetap "$edgetap" ups_since TOUCH_UP 1
play_and_wait edgedrag "$edgedrag" ups_since TOUCH_UP 1
kill "$source_reader"
wait "$source_reader" 2>/dev/null
echo "grab.source-events $(grep -c ' TOUCH_' "$on_source")"

# --- sigterm: the daemon stops with a finger down ----------------------------------------
from=$(($(lines "$out") + 1))
vm_play "$source" "$long" 2>/dev/null &
player=$!
vm_wait_until 15 "the long drag on the clone" ups_since TOUCH_MOTION 5 || exit 1
vm_daemon_stop
echo "daemon exit $?"
vm_client_stop
VM_LIBINPUT_PID=$clone_reader
vm_libinput_stop "$out" || exit 1
touch_lines sigterm.drag "$out" "$from"
vm_wait_exit 15 "$player" > /dev/null
grep -F '"type":"' "$VM_RECEIVED" | sed 's/^/client json /'

# --- sigkill: the kernel cleans up -------------------------------------------------------
vm_daemon_start --config "$confdir/gestured.conf" || exit 1
vm_wait_until 20 "the clone to appear again" find_clone || exit 1
vm_settle
out=$VM_SCRATCH/clone2.libinput
vm_libinput_start "$CLONE" "$out" || exit 1
from=1
vm_play "$source" "$long" 2>/dev/null &
player=$!
vm_wait_until 15 "the long drag on the second clone" ups_since TOUCH_MOTION 5 || exit 1
kill -KILL "$VM_DAEMON_PID"
wait "$VM_DAEMON_PID" 2>/dev/null
kill "$VM_NOTIFY_PID" 2>/dev/null
gone() { [ ! -e "$CLONE" ] && ! find_clone; }
if vm_wait_until 10 "the clone to go" gone; then echo "sigkill clone-gone yes"; else echo "sigkill clone-gone no"; fi
vm_libinput_stop "$out" || exit 1
touch_lines sigkill.drag "$out" 1
vm_wait_exit 15 "$player" > /dev/null
fresh=$VM_SCRATCH/after-kill.libinput
vm_libinput_start "$source" "$fresh" || exit 1
from=$(($(lines "$fresh") + 1))
vm_play "$source" "$tap" || exit 1
vm_wait_until 10 "libinput on the source after the kill" vm_file_has "$fresh" TOUCH_UP || exit 1
touch_lines sigkill.tap "$fresh" "$from"
kill "$VM_LIBINPUT_PID"
wait "$VM_LIBINPUT_PID" 2>/dev/null
vm_remove_device "$VM_DEVICE_PID"
exit 0
