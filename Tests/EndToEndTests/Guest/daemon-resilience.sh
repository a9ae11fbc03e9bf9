#!/bin/sh
# Guest script (scripts/vm/run.sh): the daemon when things go wrong, with a
# socket client watching. Three plugs of the touchscreen:
#   1. unplugged in the middle of a pinch (the client should see it cancelled);
#   2. plugged back: a tap (the daemon should use it again);
#   3. SYN_DROPPED for real: the daemon is stopped (SIGSTOP) while gestures
#      fill the kernel's buffer for it, then resumed and given a tap and a
#      swipe (which it should recognize after resynchronising). An
#      evemu-record stopped alongside shows that the buffer did overflow.
#
# Output, one fact a line (parsed by DaemonResilienceTests.swift):
#   plug<N> node /dev/input/eventN
#   plug3 reference-syn-dropped N   SYN_DROPPED seen by the stopped evemu-record
#   daemon alive-after-plug<N>      the daemon was still running then
#   daemon exit N                   gestured's exit status after SIGTERM
#   client json {...}               every line the socket client received
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/elan-touchscreen.desc

vm_start_udevd || exit 1
vm_daemon_start || exit 1
vm_client_start || exit 1

# plug N: creates the touchscreen and waits until the client has heard of it.
plug() {
	vm_create_device "$desc" || exit 1
	echo "plug$1 node $VM_NODE"
	vm_wait_until 20 "the client to hear of plug $1" \
		vm_received_at_least "$1" '"type":"device_added"' || exit 1
}

# unplug N: removes it and waits until the client has heard of that.
unplug() {
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_until 20 "the client to hear of unplug $1" \
		vm_received_at_least "$1" '"type":"device_removed"' || exit 1
	if vm_has_exited "$VM_DAEMON_PID"; then echo "daemon died-after-plug$1"; else echo "daemon alive-after-plug$1"; fi
}

# 1: a slow pinch, cut off once the client has seen it begin
pinch=$(vm_synth "$desc" "pinch scale=2 span=40 duration=4") || exit 1
plug 1
vm_play "$VM_NODE" "$pinch" 2> /dev/null &
player=$!
vm_wait_until 20 "the pinch to begin" \
	vm_file_has "$VM_RECEIVED" '"name":"pinch".*"state":"began"' || exit 1
unplug 1
# evemu-play fails once its node is gone
vm_wait_exit 10 "$player" > /dev/null

# 2: the same device again
tap=$(vm_synth "$desc" "tap fingers=1") || exit 1
plug 2
vm_play "$VM_NODE" "$tap" || exit 1
# a tap is only recognized once no double tap can follow, after the lift
vm_wait_until 10 "the tap on the device plugged back" \
	vm_file_has "$VM_RECEIVED" '"name":"tap".*"state":"recognized"' || exit 1
unplug 2

# 3: overflow the daemon's event buffer, then carry on
flood=$(vm_synth "$desc" "swipe fingers=4 direction=left" "swipe fingers=4 direction=right" \
	"swipe fingers=4 direction=up" "swipe fingers=4 direction=down") || exit 1
after=$(vm_synth "$desc" "tap fingers=1" "swipe fingers=3 direction=left") || exit 1
plug 3
reference=$VM_SCRATCH/reference.evemu
stdbuf -oL evemu-record "$VM_NODE" > "$reference" 2>&1 &
recorder=$!
vm_wait_until 10 "evemu-record to open $VM_NODE" vm_has_open "$recorder" "$VM_NODE" || exit 1
kill -STOP "$VM_DAEMON_PID" "$recorder"
vm_play "$VM_NODE" "$flood" || exit 1
kill -CONT "$VM_DAEMON_PID" "$recorder"
vm_play "$VM_NODE" "$after" || exit 1
unplug 3
vm_wait_exit 10 "$recorder" > /dev/null
echo "plug3 reference-syn-dropped $(vm_count "$reference" '^E: [0-9.]+ 0000 0003 ')"

vm_daemon_stop
echo "daemon exit $?"
vm_client_stop
sed 's/^/client json /' "$VM_RECEIVED"
