#!/bin/sh
# Guest script of scripts/vm/rss/run.sh. For each gestured binary, three
# smaps breakdowns of the daemon (gestured-bench rss --pid), each after 10 s
# idle: with 0 devices; with 2 devices open (the T650 clickpad and an ELAN
# touchscreen); and after a subscribed client has received the gestures of
# PAD_RECORDING played on the clickpad and TS_RECORDING on the touchscreen
# (the working set of the path from read() to send()). Last, libinput
# debug-events on the same 2 devices, for reference.
# Usage: guest.sh GESTURED-BENCH PAD_RECORDING TS_RECORDING GESTURED...
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bench=$1
pad_recording=$2
ts_recording=$3
shift 3
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
vm_start_udevd || exit 1

# open_count PID: how many /dev/input/event nodes PID has open.
open_count() { ls -l "/proc/$1/fd" 2> /dev/null | grep -c /dev/input/event; }

# start_daemon: vm_daemon_start, with more patience: on TCG under load the
# notify socket can take longer than its 10 s and READY=1 (a 24 MB binary
# read over 9p) longer than its 30 s.
start_daemon() {
	for _attempt in 1 2 3; do
		VM_DAEMON_PID=
		vm_daemon_start && return 0
		if [ -n "$VM_DAEMON_PID" ]; then
			vm_wait_until 240 "READY=1 from gestured (longer)" vm_file_has "$VM_NOTES" '^READY=1' && return 0
			cat "$VM_SCRATCH/daemon.log" >&2
			return 1
		fi
		kill "$VM_NOTIFY_PID" 2> /dev/null
	done
	return 1
}

for bin in "$@"; do
	GESTURED_BIN=$bin
	export GESTURED_BIN
	start_daemon || exit 1
	sleep 10
	"$bench" rss --pid "$VM_DAEMON_PID" --label "gestured $bin: 0 devices, 10 s idle"
	vm_create_device "$devices/logitech-t650.desc" || exit 1
	pad=$VM_DEVICE_PID
	pad_node=$VM_NODE
	vm_create_device "$devices/elan-touchscreen.desc" || exit 1
	ts=$VM_DEVICE_PID
	ts_node=$VM_NODE
	vm_wait_until 30 "the daemon to open both devices" sh -c "[ \$(ls -l /proc/$VM_DAEMON_PID/fd | grep -c /dev/input/event) -ge 2 ]" || exit 1
	sleep 10
	"$bench" rss --pid "$VM_DAEMON_PID" --label "gestured $bin: 2 devices open ($(open_count "$VM_DAEMON_PID") event nodes), 10 s idle"
	vm_client_start || exit 1
	vm_play "$pad_node" "$pad_recording" || exit 1
	vm_play "$ts_node" "$ts_recording" || exit 1
	sleep 10
	"$bench" rss --pid "$VM_DAEMON_PID" --label "gestured $bin: 2 devices, after $(vm_count "$VM_RECEIVED" '"type":"gesture"') gesture events to one client, 10 s idle"
	vm_remove_device "$pad"
	vm_remove_device "$ts"
	vm_daemon_stop 2> /dev/null
	vm_client_stop
done

vm_create_device "$devices/logitech-t650.desc" || exit 1
pad=$VM_DEVICE_PID
vm_create_device "$devices/elan-touchscreen.desc" || exit 1
ts=$VM_DEVICE_PID
libinput debug-events > /dev/null 2>&1 &
li=$!
vm_wait_until 30 "libinput to open both devices" sh -c "[ \$(ls -l /proc/$li/fd | grep -c /dev/input/event) -ge 2 ]" || exit 1
sleep 10
"$bench" rss --pid "$li" --label "libinput debug-events: 2 devices open, 10 s idle"
kill "$li"
vm_remove_device "$pad"
vm_remove_device "$ts"
