#!/bin/sh
# Guest script of scripts/vm/latency/run.sh: one uinput clickpad (the T650
# description), read at once by the bare libevdev reader (the floor),
# libinput through its C library, and a socket client of the gestured
# daemon, while the same gestures are played; each prints its latencies.
# Usage: guest.sh BINDIR ROUNDS
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
rounds=$2
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/logitech-t650.desc

set --
i=0
while [ "$i" -lt "$rounds" ]; do
	set -- "$@" "swipe fingers=3 direction=left" "swipe fingers=4 direction=up" "pinch scale=2" "pinch scale=0.5"
	i=$((i + 1))
done
recording=$(vm_synth "$desc" "$@") || exit 1

vm_start_udevd || exit 1
vm_daemon_start || exit 1
"$bin/latency-client" "$VM_SOCKET" > "$VM_SCRATCH/client.out" 2>&1 &
client=$!
vm_create_device "$desc" || exit 1
node=$VM_NODE
"$bin/latency-floor" "$node" > "$VM_SCRATCH/floor.out" 2>&1 &
floor=$!
"$bin/latency-libinput" "$node" > "$VM_SCRATCH/libinput.out" 2>&1 &
libinput=$!
vm_wait_until 30 "the floor reader" vm_has_open "$floor" "$node" &&
	vm_wait_until 30 "the libinput reader" vm_has_open "$libinput" "$node" &&
	vm_wait_until 30 "the daemon to open $node" vm_has_open "$VM_DAEMON_PID" "$node" || exit 1

vm_play "$node" "$recording" || exit 1
vm_remove_device "$VM_DEVICE_PID"
for pid in "$floor" "$libinput" "$client"; do vm_wait_exit 30 "$pid" > /dev/null; done
cat "$VM_SCRATCH/floor.out" "$VM_SCRATCH/libinput.out" "$VM_SCRATCH/client.out"

# idle: the daemon's CPU time over 10 s with two devices open and nothing
# touching them (a benchmark figure; the waiting here is the measurement)
vm_create_device "$desc" || exit 1
first=$VM_DEVICE_PID
vm_create_device "$GESTURED_REPO/Tests/EndToEndTests/Devices/elan-touchscreen.desc" || exit 1
second=$VM_DEVICE_PID
vm_wait_until 30 "the daemon to open both devices" \
	sh -c "[ \$(ls -l /proc/$VM_DAEMON_PID/fd | grep -c /dev/input/event) -ge 2 ]" || exit 1
ticks() { awk '{ print $14 + $15 }' "/proc/$VM_DAEMON_PID/stat"; }
before=$(ticks)
sleep 10
echo "idle ticks-in-10s $(($(ticks) - before)) rss-kb $(awk '/^VmRSS/ { print $2 }' "/proc/$VM_DAEMON_PID/status")"
vm_remove_device "$first"
vm_remove_device "$second"
vm_daemon_stop 2> /dev/null
