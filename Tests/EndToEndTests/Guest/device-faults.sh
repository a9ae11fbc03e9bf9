#!/bin/sh
# Guest script (scripts/vm/run.sh): device faults against the running daemon,
# with a socket client watching and a steady device whose gestures must all
# arrive while the other devices misbehave (issue 16).
#
#   1. cycles: two touchscreens (A and B) plugged in together, a slow pinch
#      started on both, and both unplugged once the client has seen both
#      pinches begin; GESTURED_FAULT_CYCLES times (default 50). The touchpad
#      "steady" replays its gestures in a loop all along.
#   2. drops: touchscreen C; GESTURED_FAULT_DROPS times (default 10) a pinch
#      begins, the daemon is stopped (SIGSTOP) while the middle of the pinch
#      overflows its evdev buffer (SYN_DROPPED for real), resumed, and the
#      pinch ends. An evemu-record stopped alongside counts the overflows.
#      Then a tap, which must be recognized after the resynchronisations.
#   3. garbage: touchscreen G gets events no real touchscreen sends: values
#      far outside its axes, ABS_MT_SLOT -1 and 99, one tracking id in two
#      slots, a lift of a slot never touched, frames without SYN_REPORT, a
#      frame of 10 000 events; then every slot lifted and a tap, which must be
#      recognized. Touchscreen Z has axes of zero and of negative range. The
#      steady touchpad replays again meanwhile.
#
# Output, one fact a line (parsed by DeviceFaultTests.swift):
#   steady node /dev/input/eventN
#   steady plays N                  complete replays of steady.evemu
#   steady syn-dropped N            SYN_DROPPED the daemon logged on it (it fell behind)
#   steady replay exit N            gestured --replay of what gesturectl record read from it
#   steady replay-json {...}        every gesture event of that replay
#   cycle <i> nodes <A> <B>         the nodes of cycle i
#   drops node /dev/input/eventN
#   drops reference-syn-dropped N   SYN_DROPPED seen by the stopped evemu-record
#   garbage node /dev/input/eventN
#   garbage events N                events written by the garbage recording
#   zero-range node /dev/input/eventN
#   daemon rss-kib <phase> N        VmRSS of gestured, phase: start warm cycles drops garbage
#   daemon fds <phase> N            its open descriptors
#   daemon alive-after <phase>      it was still running then
#   daemon exit N                   its exit status after SIGTERM
#   client json {...}               every line the socket client received
#   log <line>                      every line of the daemon's log
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
cycles=${GESTURED_FAULT_CYCLES:-50}
drops=${GESTURED_FAULT_DROPS:-10}

# named DESC NAME: a copy of DESC under another device name, path printed
named() {
	_copy=$VM_SCRATCH/$(echo "$2" | tr ' ' -).desc
	sed "s/^N: .*/N: $2/" "$1" > "$_copy"
	echo "$_copy"
}
touchscreen=$devices/elan-touchscreen.desc
desc_a=$(named "$touchscreen" "Fault Touchscreen A")
desc_b=$(named "$touchscreen" "Fault Touchscreen B")
desc_c=$(named "$touchscreen" "Fault Touchscreen C")
desc_g=$(named "$touchscreen" "Fault Garbage Touchscreen")
# zero-width X axes and a Y axis that ends below zero (uinput refuses only
# min > max), no resolutions
desc_z=$VM_SCRATCH/zero-range.desc
sed -e 's/^N: .*/N: Fault Zero Range Touchscreen/' \
	-e 's/^A: 00 .*/A: 00 0 0 0 0 0/' -e 's/^A: 35 .*/A: 35 0 0 0 0 0/' \
	-e 's/^A: 01 .*/A: 01 -5000 -4000 0 0 0/' -e 's/^A: 36 .*/A: 36 -5000 -4000 0 0 0/' \
	"$touchscreen" > "$desc_z"

# die WHAT: on a failure, everything the host needs to see why, then exit 1
die() {
	vm_log "failed: $1"
	if [ -n "${VM_DAEMON_PID:-}" ]; then
		vm_log "daemon state: $(sed -n 's/^State:\t//p' /proc/"$VM_DAEMON_PID"/status 2>/dev/null), open: $(ls -l /proc/"$VM_DAEMON_PID"/fd 2>/dev/null | sed -n 's|.* -> ||p' | tr '\n' ' ')"
	fi
	vm_log "input devices: $(ls /dev/input 2>/dev/null | tr '\n' ' ')"
	sed 's/^/client json /' "$VM_RECEIVED" 2>/dev/null
	sed 's/^/log /' "$VM_SCRATCH/daemon.log" 2>/dev/null
	exit 1
}

added=0
removed=0
# expect_added N / expect_removed N: waits until the client has heard of N
# more devices added (removed) than before
expect_added() {
	added=$((added + $1))
	vm_wait_until 30 "the client to hear of $added devices added" \
		marked_at_least "$added" '"type":"device_added"' || die "devices added"
}
expect_removed() {
	removed=$((removed + $1))
	vm_wait_until 30 "the client to hear of $removed devices removed" \
		marked_at_least "$removed" '"type":"device_removed"' || die "devices removed"
}
# figures PHASE: the daemon's memory and descriptors, and whether it runs
figures() {
	if vm_has_exited "$VM_DAEMON_PID"; then
		echo "daemon died-after $1"
		return
	fi
	echo "daemon alive-after $1"
	echo "daemon rss-kib $1 $(awk '/^VmRSS:/ { print $2 }' /proc/"$VM_DAEMON_PID"/status)"
	echo "daemon fds $1 $(ls /proc/"$VM_DAEMON_PID"/fd | wc -l)"
}
# split_frames RECORDING FROM TO OUT: the frames FROM..TO-1 (0-based, each
# ending with its SYN_REPORT) of RECORDING's E: lines, into OUT
split_frames() {
	awk -v from="$2" -v to="$3" '/^E:/ {
		if (frame >= from && frame < to) print
		if ($3 == "0000" && $4 == "0000") frame++
	}' "$1" > "$4"
}
frames() { grep -c '^E: [0-9.]* 0000 0000 ' "$1"; }

# the steady touchpad, replaying its recording until told to stop
steady_rec=$(vm_synth "$devices/logitech-t650.desc" "swipe fingers=3 direction=left" \
	"swipe fingers=4 direction=right" "pinch scale=0.5") || die "synthesize the steady recording"
steady_plays=$VM_SCRATCH/steady.plays
: > "$steady_plays"
steady_start() {
	rm -f "$VM_SCRATCH/steady.stop"
	(
		while [ ! -e "$VM_SCRATCH/steady.stop" ]; do
			evemu-play "$steady_node" < "$steady_rec" || break
			echo played >> "$steady_plays"
		done
	) &
	steady_loop=$!
}
steady_stop() {
	touch "$VM_SCRATCH/steady.stop"
	vm_wait_exit 60 "$steady_loop" > /dev/null
}

vm_start_udevd || die "start udevd"
vm_daemon_start || die "start the daemon"
vm_client_start || die "start the client"
# The waits below look for a few lines (devices added and removed, the faulted devices'
# pinches and taps) among everything the client receives, which the steady touchpad
# grows all along. Grepping all of it at every poll costs the guest's one CPU more with
# every cycle, CPU the daemon and the players need; so one reader follows the file as
# it grows and keeps the lines the waits need in a small file, and the waits count there.
marks=$VM_SCRATCH/client.marks
: > "$marks"
tail -n +1 -f "$VM_RECEIVED" 2> /dev/null |
	grep --line-buffered -E '"type":"device_(added|removed)"|"name":"(pinch|tap)"' > "$marks" &
marks_reader=$!
# marked_at_least N PATTERN: whether the client has received at least N lines
# matching PATTERN, which must be one of the kinds kept in $marks
marked_at_least() { [ "$(vm_count "$marks" "$2")" -ge "$1" ]; }

vm_create_device "$devices/logitech-t650.desc" || die "create the steady touchpad"
steady_node=$VM_NODE
steady_pid=$VM_DEVICE_PID
echo "steady node $steady_node"
expect_added 1
# what the kernel really delivered on it (evemu-play runs late on a loaded host, and a
# gesture stretched by it may honestly be another gesture): replayed at the end
steady_record=$GESTURED_VM_OUT/steady.evemu
"$(vm_tool gesturectl)" record "$steady_node" > "$steady_record" 2> "$VM_SCRATCH/steady-record.log" &
steady_recorder=$!
vm_wait_until 30 "gesturectl record to open $steady_node" vm_has_open "$steady_recorder" "$steady_node" || die "gesturectl record"
figures start

# 1: cycles
# dropped_on NODE: how many times the daemon logged lost events (SYN_DROPPED) on NODE
dropped_on() { vm_count "$VM_SCRATCH/daemon.log" "SYN_DROPPED.*device.node=$1( |\$)"; }
# cycle_began N: whether the client has seen N pinches begin on the cycles' devices.
# On a loaded host the daemon can fall far enough behind a new device for its evdev
# buffer to overflow as the pinch lands; the resync then rightly cancels those touches
# (the drops phase checks that), so that pinch never begins. A player that finished
# without its pinch beginning, on a node the daemon logged SYN_DROPPED for since, plays
# the pinch again, up to 3 times a cycle; anything else is waited for and fails.
cycle_began() {
	marked_at_least "$1" '"name":"pinch".*"state":"began"' && return 0
	[ "$replays" -lt 3 ] || return 1
	if vm_has_exited "$player_a" && [ "$(dropped_on "$node_a")" -gt "$drops_a" ]; then
		vm_log "cycle $i: SYN_DROPPED on $node_a before its pinch began, playing it again"
		drops_a=$(dropped_on "$node_a")
		replays=$((replays + 1))
		{ evemu-play "$node_a" < "$lift"; evemu-play "$node_a" < "$pinch"; } 2> /dev/null &
		player_a=$!
	fi
	if vm_has_exited "$player_b" && [ "$(dropped_on "$node_b")" -gt "$drops_b" ]; then
		vm_log "cycle $i: SYN_DROPPED on $node_b before its pinch began, playing it again"
		drops_b=$(dropped_on "$node_b")
		replays=$((replays + 1))
		{ evemu-play "$node_b" < "$lift"; evemu-play "$node_b" < "$pinch"; } 2> /dev/null &
		player_b=$!
	fi
	return 1
}
synthesized=$(vm_synth "$touchscreen" "pinch scale=2 span=40 duration=6") || die "synthesize the cycle pinch"
# The cycle pinch never lifts: its fingers stay down until the unplug, so only the unplug can
# end it (a cycle whose other pinch had to be played again, below, takes long enough for this
# one to finish otherwise). Its lift frame, alone, lifts a device's fingers before a replay.
pinch=$(mktemp "$VM_SCRATCH/pinch-held.XXXXXX")
lift=$(mktemp "$VM_SCRATCH/pinch-lift.XXXXXX")
awk -v held="$pinch" -v lift="$lift" '
	!/^E: / { print > held; print > lift; next }
	{ frame = frame $0 "\n" }
	/ 0000 0000 0000/ {
		if (frame ~ / 0003 0039 -/) lifted = 1
		if (!lifted) printf "%s", frame > held
		else if (!done) { printf "%s", frame > lift; done = 1 }
		frame = ""
	}' "$synthesized"
grep -q ' 0003 0039 -' "$lift" || die "the cycle pinch has no lift frame"
steady_start
i=1
while [ "$i" -le "$cycles" ]; do
	vm_create_device "$desc_a" || die "create touchscreen A of cycle $i"
	node_a=$VM_NODE
	pid_a=$VM_DEVICE_PID
	vm_create_device "$desc_b" || die "create touchscreen B of cycle $i"
	node_b=$VM_NODE
	pid_b=$VM_DEVICE_PID
	echo "cycle $i nodes $node_a $node_b"
	expect_added 2
	drops_a=$(dropped_on "$node_a")
	drops_b=$(dropped_on "$node_b")
	replays=0
	evemu-play "$node_a" < "$pinch" 2> /dev/null &
	player_a=$!
	evemu-play "$node_b" < "$pinch" 2> /dev/null &
	player_b=$!
	# how long the players and the daemon take depends on the host's load (TCG): the
	# bound only stops a run that would never see them, the outer timeout is the budget
	vm_wait_until 120 "both pinches of cycle $i to begin" cycle_began "$((2 * i))" || die "both pinches of cycle $i"
	vm_remove_device "$pid_a"
	vm_remove_device "$pid_b"
	expect_removed 2
	# evemu-play fails once its node is gone
	vm_wait_exit 20 "$player_a" > /dev/null
	vm_wait_exit 20 "$player_b" > /dev/null
	[ "$i" = 5 ] && figures warm
	[ $((i % 10)) = 0 ] && vm_log "cycle $i of $cycles done"
	i=$((i + 1))
done
steady_stop
figures cycles

# 2: drops
long_pinch=$(vm_synth "$touchscreen" "pinch scale=2.5 span=40 duration=5") || die "synthesize the long pinch"
total=$(frames "$long_pinch")
head=$VM_SCRATCH/pinch-head.evemu
middle=$VM_SCRATCH/pinch-middle.evemu
tail=$VM_SCRATCH/pinch-tail.evemu
split_frames "$long_pinch" 0 $((total / 5)) "$head"
split_frames "$long_pinch" $((total / 5)) $((total * 9 / 10)) "$middle"
split_frames "$long_pinch" $((total * 9 / 10)) "$total" "$tail"
vm_create_device "$desc_c" || die "create touchscreen C"
node_c=$VM_NODE
pid_c=$VM_DEVICE_PID
echo "drops node $node_c"
expect_added 1
reference=$VM_SCRATCH/reference.evemu
stdbuf -oL evemu-record "$node_c" > "$reference" 2>&1 &
recorder=$!
vm_wait_until 10 "evemu-record to open $node_c" vm_has_open "$recorder" "$node_c" || die "evemu-record"
r=1
while [ "$r" -le "$drops" ]; do
	vm_play "$node_c" "$head" || die "play the head of drop round $r"
	vm_wait_until 30 "the pinch of drop round $r to begin" \
		marked_at_least "$((2 * cycles + r))" '"name":"pinch".*"state":"began"' || die "the pinch of drop round $r to begin"
	kill -STOP "$VM_DAEMON_PID" "$recorder"
	vm_play "$node_c" "$middle" || die "play the middle of drop round $r"
	kill -CONT "$VM_DAEMON_PID" "$recorder"
	vm_play "$node_c" "$tail" || die "play the tail of drop round $r"
	# the pinch of this round is over (ended, or cancelled by the resync)
	vm_wait_until 30 "the pinch of drop round $r to end" \
		marked_at_least "$((2 * cycles + r))" '"name":"pinch".*"state":"(ended|cancelled)"' || die "the pinch of drop round $r to end"
	r=$((r + 1))
done
tap=$(vm_synth "$touchscreen" "tap fingers=1") || die "synthesize the tap"
vm_play "$node_c" "$tap" || die "play the tap on C"
vm_wait_until 20 "the tap after the drops" \
	vm_file_has "$marks" '"name":"tap".*"state":"recognized".*Fault Touchscreen C|Fault Touchscreen C.*"name":"tap".*"state":"recognized"' || die "the tap after the drops"
vm_remove_device "$pid_c"
expect_removed 1
vm_wait_exit 10 "$recorder" > /dev/null
echo "drops reference-syn-dropped $(vm_count "$reference" '^E: [0-9.]+ 0000 0003 ')"
figures drops

# 3: garbage
vm_create_device "$desc_g" || die "create the garbage touchscreen"
node_g=$VM_NODE
pid_g=$VM_DEVICE_PID
echo "garbage node $node_g"
vm_create_device "$desc_z" || die "create the zero-range touchscreen"
node_z=$VM_NODE
pid_z=$VM_DEVICE_PID
echo "zero-range node $node_z"
# the zero-range touchscreen may be refused; the garbage one must be added
vm_wait_until 30 "the daemon to open $node_g" vm_has_open "$VM_DAEMON_PID" "$node_g" || die "the daemon to open the garbage touchscreen"
garbage=$VM_SCRATCH/garbage.evemu
# E: lines: time type code value (hex type and code, decimal value). Codes in
# decimal here (awk has no hex literals): ABS_MT_SLOT 47, ABS_MT_TOUCH_MAJOR 48,
# ABS_MT_POSITION_X 53, ABS_MT_POSITION_Y 54, ABS_MT_TRACKING_ID 57, BTN_TOUCH 330.
awk 'function e(type, code, value) { printf "E: %d.%06d %04x %04x %d\n", t / 1000000, t % 1000000, type, code, value }
function syn() { e(0, 0, 0); t += 10000 }
BEGIN {
	t = 1000000
	# values far outside the axes (0..3312, 0..1872, 0..255)
	e(3, 47, 0); e(3, 57, 1); e(3, 53, 999999); e(3, 54, -999999); e(3, 48, 100000); e(1, 330, 1); syn()
	e(3, 53, -2147483648); e(3, 54, 2147483647); syn()
	# slots the device does not have (the kernel drops these: the events go to slot 0)
	e(3, 47, -1); e(3, 53, 500); syn()
	e(3, 47, 99); e(3, 53, 600); syn()
	# one tracking id in two slots; a lift of a slot never touched
	e(3, 47, 1); e(3, 57, 1); e(3, 53, 700); e(3, 54, 700); syn()
	e(3, 47, 7); e(3, 57, -1); syn()
	# frames without SYN_REPORT
	for (i = 0; i < 200; i++) { e(3, 47, i % 3); e(3, 53, 100 + i); e(3, 54, 100 + 2 * i) }
	syn()
	# a new tracking id in an occupied slot, touches in every slot
	e(3, 47, 0); e(3, 57, 5); syn()
	for (s = 0; s < 10; s++) { e(3, 47, s); e(3, 57, 100 + s); e(3, 53, 300 * s); e(3, 54, 150 * s) }
	syn()
	# one frame of 10 000 events (values alternate, or the kernel drops repeats)
	for (i = 0; i < 5000; i++) { e(3, 47, i % 10); e(3, 53, (i % 2) ? 3000 : -3000) }
	syn()
	# BTN_TOUCH against the slots, then every slot lifted
	e(1, 330, 0); syn(); e(1, 330, 1); syn()
	for (s = 0; s < 10; s++) { e(3, 47, s); e(3, 57, -1) }
	e(1, 330, 0); syn()
}' > "$garbage"
echo "garbage events $(grep -c '^E:' "$garbage")"
steady_start
vm_play "$node_g" "$garbage" || die "play the garbage"
vm_play "$node_z" "$tap" || die "play the tap on the zero-range touchscreen"
vm_play "$node_g" "$tap" || die "play the tap on the garbage touchscreen"
vm_wait_until 20 "the tap after the garbage" \
	vm_file_has "$marks" '"name":"tap".*"state":"recognized".*Fault Garbage|Fault Garbage.*"name":"tap".*"state":"recognized"' || die "the tap after the garbage"
steady_stop
vm_remove_device "$pid_g"
vm_remove_device "$pid_z"
vm_wait_until 30 "the daemon to close $node_g" sh -c "! ls -l /proc/$VM_DAEMON_PID/fd | grep -q ' $node_g\$'" || die "the daemon to close the garbage touchscreen"
figures garbage
echo "steady plays $(wc -l < "$steady_plays")"
echo "steady syn-dropped $(dropped_on "$steady_node")"

vm_remove_device "$steady_pid"
expect_removed 1
vm_wait_exit 30 "$steady_recorder" > /dev/null
vm_daemon_stop 2> /dev/null
echo "daemon exit $?"
vm_client_stop
kill "$marks_reader" 2> /dev/null
"$(vm_tool gestured)" --replay "$steady_record" --json > "$VM_SCRATCH/steady.replay" 2> "$VM_SCRATCH/steady.replay.log"
echo "steady replay exit $?"
grep '"type":"gesture"' "$VM_SCRATCH/steady.replay" | sed 's/^/steady replay-json /'
sed 's/^/client json /' "$VM_RECEIVED"
sed 's/^/log /' "$VM_SCRATCH/daemon.log"
