#!/bin/sh
# Guest script of scripts/vm/latency/syscalls.sh: what one frame costs the
# daemon in system calls and wake-ups, on the real device path (a uinput
# T650, the latency benchmark's gestures, one socket client). One unmeasured
# cycle first (a fresh process pages its code in over 9p), then the same
# cycle played twice: once counted by the threads' context switches
# (/proc/PID/task/*/status: voluntary switches are the times a thread
# slept and was woken), once under `strace -f -c` (system calls by name).
# Prints per frame played: "switches <thread> voluntary V involuntary I",
# "faults minor N major M" (the daemon's page faults),
# "syscall <name> N", "frames F", "messages M" (gesture lines the client got).
# Usage: syscalls-guest.sh BINDIR
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/logitech-t650.desc
cycle=$(vm_synth "$desc" "swipe fingers=3 direction=left
swipe fingers=4 direction=up
pinch scale=2
pinch scale=0.5") || exit 1
frames=$(grep -c '^E: [0-9.]* 0000 0000 0000' "$cycle")
vm_start_udevd || exit 1
vm_daemon_start || exit 1
"$bin/latency-client" "$VM_SOCKET" "$VM_SCRATCH/client.raw" > "$VM_SCRATCH/client.out" 2>&1 &
client=$!
vm_create_device "$desc" || exit 1
vm_wait_until 30 "the daemon to open $VM_NODE" vm_has_open "$VM_DAEMON_PID" "$VM_NODE" || exit 1
vm_play "$VM_NODE" "$cycle" || exit 1

# switches: "tid comm voluntary involuntary" for every thread of the daemon
switches() {
	for _t in /proc/"$VM_DAEMON_PID"/task/*; do
		printf '%s %s %s %s\n' "$(basename "$_t")" "$(cat "$_t/comm")" \
			"$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$_t/status")" \
			"$(awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "$_t/status")"
	done
}
# faults: the daemon's minor and major page faults so far (/proc/PID/stat
# fields 10 and 12)
faults() { awk '{ print $10, $12 }' /proc/"$VM_DAEMON_PID"/stat; }
switches > "$VM_SCRATCH/before"
faults_before=$(faults)
vm_play "$VM_NODE" "$cycle" || exit 1
faults_after=$(faults)
switches > "$VM_SCRATCH/after"
echo "frames $frames"
echo "$faults_before $faults_after" | awk -v frames="$frames" '{ printf "faults minor %.2f major %.2f\n", ($3 - $1) / frames, ($4 - $2) / frames }'
awk -v frames="$frames" 'NR == FNR { v[$1] = $3; n[$1] = $4; next }
	{ printf "switches %s(%s) voluntary %.2f involuntary %.2f\n", $2, $1, ($3 - v[$1]) / frames, ($4 - n[$1]) / frames }' \
	"$VM_SCRATCH/before" "$VM_SCRATCH/after"

strace -f -c -o "$VM_SCRATCH/strace" -p "$VM_DAEMON_PID" 2> "$VM_SCRATCH/strace.err" &
tracer=$!
sleep 2
vm_play "$VM_NODE" "$cycle" || exit 1
sleep 1
kill -INT "$tracer"
wait "$tracer"
awk -v frames="$frames" '$1 ~ /^[0-9.]+$/ && NF >= 5 { name = $NF; calls = $4; printf "syscall %s %.2f\n", name, calls / frames }' \
	"$VM_SCRATCH/strace"
if [ -n "${GESTURED_PERF:-}" ]; then
	# where the daemon's guest CPU goes: cpu-clock samples over the same cycle
	perf record -q -e cpu-clock -F 2000 -o "$VM_SCRATCH/perf.data" -p "$VM_DAEMON_PID" 2> "$VM_SCRATCH/perf.err" &
	profiler=$!
	sleep 2
	vm_play "$VM_NODE" "$cycle" || exit 1
	sleep 1
	kill -INT "$profiler"
	wait "$profiler"
	perf report -i "$VM_SCRATCH/perf.data" --stdio --no-children --sort dso 2> /dev/null | grep -v '^#' | grep -v '^$' | head -20 | sed 's/^/perf-dso /'
	perf report -i "$VM_SCRATCH/perf.data" --stdio --no-children --sort dso,sym 2> /dev/null | grep -v '^#' | grep -v '^$' | head -"$GESTURED_PERF" | sed 's/^/perf-sym /'
fi
vm_remove_device "$VM_DEVICE_PID"
vm_wait_exit 30 "$client" > /dev/null
echo "messages $(($(wc -l < "$VM_SCRATCH/client.raw") / 3)) (three cycles)"
vm_daemon_stop 2> /dev/null
