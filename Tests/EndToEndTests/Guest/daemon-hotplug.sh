#!/bin/sh
# Guest script (scripts/vm/run.sh): the daemon end to end. gestured starts as
# its service would (Type=notify: ready when it sends READY=1), a socket
# client subscribes, and only then is each device plugged in, so the daemon
# must find it through udev (with the project's rules) by itself. Gestures
# scripted with `gesturectl synthesize` are played onto it in real time; the
# device is unplugged; finally the daemon is stopped with SIGTERM.
#
# Usage: daemon-hotplug.sh DEVICE...   DEVICE: touchscreen | clickpad
#
# Output, one fact a line (parsed by DaemonHotplugTests.swift):
#   daemon ready                    READY=1 arrived on NOTIFY_SOCKET
#   <device> node /dev/input/eventN
#   <device> played N               evemu events played onto the node
#   client json {...}               every line the socket client received
#   daemon exit N                   gestured's exit status after SIGTERM
# The daemon's log goes to stderr. Exit status: 0 when the guest side worked.
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
guest=$GESTURED_REPO/Tests/EndToEndTests/Guest
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
gestured=$(vm_tool gestured)
gesturectl=$(vm_tool gesturectl)
for tool in "$gestured" "$gesturectl"; do
	[ -x "$tool" ] || { vm_log "no $tool (swift build first)"; exit 1; }
done

vm_start_udevd || exit 1

# Type=notify, as in systemd/gestured.service: a datagram socket that
# collects what the daemon sends with sd_notify.
notify=/run/gestured-notify.sock
notes=$VM_SCRATCH/notify.log
socat -u UNIX-RECV:"$notify" OPEN:"$notes",creat,append &
notify_pid=$!
vm_wait_until 10 "the notify socket" test -S "$notify" || exit 1
mkdir -p /run/gestured
socket=/run/gestured/gestured.sock
NOTIFY_SOCKET=$notify "$gestured" --socket "$socket" 2> "$VM_SCRATCH/daemon.log" &
daemon=$!
vm_wait_until 30 "READY=1 from gestured" vm_file_has "$notes" '^READY=1' ||
	{ cat "$VM_SCRATCH/daemon.log" >&2; exit 1; }
echo "daemon ready"

# The client: requests go in through a FIFO this shell keeps open, so the
# connection lasts until the daemon closes it.
requests=$VM_SCRATCH/client.in
received=$VM_SCRATCH/client.out
mkfifo "$requests"
: > "$received"
socat - UNIX-CONNECT:"$socket" < "$requests" > "$received" &
client=$!
exec 5> "$requests"
echo '{"type":"hello","id":1,"protocol_version":1,"client_name":"kernel-tier"}' >&5
echo '{"type":"subscribe","id":2}' >&5
vm_wait_until 10 "the daemon to confirm the subscription" \
	vm_file_has "$received" '"request":"subscribe"' || { cat "$received" >&2; exit 1; }

status=0
for name in "$@"; do
	case $name in
	touchscreen) desc=$devices/elan-touchscreen.desc ;;
	clickpad) desc=$devices/logitech-t650.desc ;;
	*) vm_log "unknown device $name"; status=1; continue ;;
	esac
	recording=$VM_SCRATCH/$name.evemu
	"$gesturectl" synthesize "$guest/$name.gestures" --device "$desc" > "$recording" || { status=1; continue; }
	vm_create_device "$desc" || { status=1; continue; }
	node=$VM_NODE
	echo "$name node $node"
	vm_wait_until 20 "the client to hear of $node" \
		vm_file_has "$received" "\"device\":\"$node\".*\"type\":\"device_added\"" || { status=1; continue; }
	vm_play "$node" "$recording" || status=1
	echo "$name played $(grep -c '^E:' "$recording")"
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_until 20 "the client to hear $node is gone" \
		vm_file_has "$received" "\"device\":\"$node\".*\"type\":\"device_removed\"" || status=1
done

kill -TERM "$daemon"
vm_wait_exit 15 "$daemon"
echo "daemon exit $?"
vm_wait_exit 10 "$client" > /dev/null
exec 5>&-
kill "$notify_pid" 2> /dev/null
sed 's/^/client json /' "$received"
sed 's/^/gestured: /' "$VM_SCRATCH/daemon.log" >&2
exit $status
