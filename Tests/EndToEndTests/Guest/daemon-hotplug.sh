#!/bin/sh
# Guest script (scripts/vm/run.sh): the daemon end to end. gestured starts as
# its units would start it (socket-activated on the first connection, then
# Type=notify: ready when it sends READY=1), a socket client subscribes,
# and only then is each device plugged in, so the daemon
# must find it through udev (with the project's rules) by itself. The
# gestures of Guest/<device>.gestures (`gesturectl synthesize`) are played
# onto it in real time; the device is unplugged; finally the daemon is
# stopped with SIGTERM.
#
# Usage: daemon-hotplug.sh DEVICE...   DEVICE: touchscreen | clickpad
#
# Output, one fact a line (parsed by DaemonHotplugTests.swift):
#   daemon ready                    READY=1 arrived on NOTIFY_SOCKET
#   daemon socket-activated         it used the socket it was handed (fd 3)
#   <device> node /dev/input/eventN
#   <device> played N               evemu events played onto the node
#   daemon exit N                   gestured's exit status after SIGTERM
#   client json {...}               every line the socket client received
# The daemon's log goes to stderr. Exit status: 0 when the guest side worked.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
guest=$GESTURED_REPO/Tests/EndToEndTests/Guest
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices

vm_start_udevd || exit 1
# as gestured.socket and gestured.service would: the first connection (the
# client's) starts the daemon on the listening socket
vm_daemon_start --socket-activated || exit 1
vm_client_start || exit 1
vm_daemon_ready || exit 1
echo "daemon ready"
if grep -q 'Using the socket passed by systemd' "$VM_SCRATCH/daemon.log"; then
	echo "daemon socket-activated"
fi

status=0
plugged=0
for name in "$@"; do
	case $name in
	touchscreen) desc=$devices/elan-touchscreen.desc ;;
	clickpad) desc=$devices/logitech-t650.desc ;;
	*) vm_log "unknown device $name"; status=1; continue ;;
	esac
	recording=$VM_SCRATCH/$name.evemu
	"$(vm_tool gesturectl)" synthesize "$guest/$name.gestures" --device "$desc" > "$recording" ||
		{ status=1; continue; }
	vm_create_device "$desc" || { status=1; continue; }
	node=$VM_NODE
	echo "$name node $node"
	# nodes are reused after a removal: count announcements, not names
	plugged=$((plugged + 1))
	vm_wait_until 20 "the client to hear of $node" \
		vm_received_at_least "$plugged" '"type":"device_added"' || { status=1; continue; }
	vm_play "$node" "$recording" || status=1
	echo "$name played $(grep -c '^E:' "$recording")"
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_until 20 "the client to hear $node is gone" \
		vm_received_at_least "$plugged" '"type":"device_removed"' || status=1
done

vm_daemon_stop
echo "daemon exit $?"
vm_client_stop
sed 's/^/client json /' "$VM_RECEIVED"
exit $status
