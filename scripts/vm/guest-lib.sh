# shellcheck shell=sh
# Helpers for scripts that run inside the kernel tier's guest (run.sh).
# Source it:  . "$GESTURED_REPO/scripts/vm/guest-lib.sh"
#
# Waiting is always for a condition (a file, a line, an open fd), polled in a
# bounded loop; never a fixed sleep standing in for the condition.

: "${GESTURED_REPO:?guest-lib.sh runs inside scripts/vm/run.sh}"
VM_SCRATCH=/run/gestured-vm
mkdir -p "$VM_SCRATCH"
# systemd's tools notice the chroot and then refuse to work ("Running in
# chroot, ignoring request") unless told otherwise.
export SYSTEMD_IGNORE_CHROOT=1

vm_log() { echo "guest [$(cut -d" " -f1 /proc/uptime) s]: $*" >&2; }

# vm_now_ms: milliseconds since the guest booted.
vm_now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# vm_wait_until SECONDS DESCRIPTION COMMAND...: runs COMMAND until it succeeds,
# every 10 ms for the first half second, then every 100 ms (a long wait's polls,
# three processes each, would otherwise take the guest's one CPU from what is
# awaited); after SECONDS, says what it was waiting for and returns 1.
vm_wait_until() {
	_limit=$(($(vm_now_ms) + $1 * 1000))
	_what=$2
	_polls=0
	shift 2
	until "$@"; do
		if [ "$(vm_now_ms)" -ge "$_limit" ]; then
			vm_log "gave up waiting for $_what"
			return 1
		fi
		_polls=$((_polls + 1))
		if [ "$_polls" -le 50 ]; then sleep 0.01; else sleep 0.1; fi
	done
}

# vm_has_open PID PATH: whether process PID has PATH open.
vm_has_open() {
	for _fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$_fd" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}

# vm_has_exited PID: whether process PID has ended (gone, or a zombie that
# has not been waited for yet; `kill -0` still succeeds on those).
vm_has_exited() {
	_state=$(sed 's/.*) //' /proc/"$1"/stat 2>/dev/null | cut -d' ' -f1)
	[ -z "$_state" ] || [ "$_state" = Z ]
}

# vm_wait_exit SECONDS PID: waits for child PID to end and returns its exit
# status; past SECONDS, kills it and returns 124.
vm_wait_exit() {
	if ! vm_wait_until "$1" "process $2 to exit" vm_has_exited "$2"; then
		kill -9 "$2" 2>/dev/null
		wait "$2" 2>/dev/null
		return 124
	fi
	wait "$2"
}

# vm_file_has FILE PATTERN: whether FILE has a line matching PATTERN (ERE).
vm_file_has() { grep -Eq -- "$2" "$1" 2>/dev/null; }

# vm_start_udevd: systemd-udevd as a daemon, with the project's rules
# (udev-rules/*.rules, when the checkout has them) in /run/udev/rules.d,
# which takes precedence over the host's read-only /etc and /lib.
vm_start_udevd() {
	mkdir -p /run/udev/rules.d
	if [ -d "$GESTURED_REPO/udev-rules" ]; then
		for _rule in "$GESTURED_REPO"/udev-rules/*.rules; do
			[ -f "$_rule" ] && cp "$_rule" /run/udev/rules.d/
		done
	fi
	_udevd=$(command -v systemd-udevd || echo /lib/systemd/systemd-udevd)
	"$_udevd" --daemon || { vm_log "systemd-udevd did not start"; return 1; }
	vm_wait_until 10 "udevd's control socket" test -S /run/udev/control
}

# vm_settle: waits until udev has processed every event so far.
vm_settle() { udevadm settle --timeout=10; }

# vm_create_device DESC: creates a uinput device from an evemu description
# with evemu-device, which keeps it alive until it is killed. Sets VM_NODE
# (/dev/input/eventN) and VM_DEVICE_PID; when udevd runs, also waits for it
# to have tagged the device.
vm_create_device() {
	[ -f "$1" ] || { vm_log "no such device description: $1"; return 1; }
	_out=$(mktemp "$VM_SCRATCH/evemu-device.XXXXXX")
	# evemu-device prints "<name>: /dev/input/eventN"; line-buffered so the
	# line arrives while it keeps running.
	stdbuf -oL evemu-device "$1" > "$_out" 2>&1 &
	VM_DEVICE_PID=$!
	vm_wait_until 10 "evemu-device to create $1" vm_file_has "$_out" ': /dev/input/event[0-9]+$' ||
		{ cat "$_out" >&2; return 1; }
	VM_NODE=$(sed -n 's|.*: \(/dev/input/event[0-9]*\)$|\1|p' "$_out" | head -n 1)
	if [ -S /run/udev/control ]; then
		vm_settle
	fi
}

# vm_remove_device PID: destroys the device made by vm_create_device.
vm_remove_device() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# vm_play NODE RECORDING: replays the E: lines of RECORDING onto NODE with
# their original timing (evemu-play sleeps between frames).
vm_play() { evemu-play "$1" < "$2"; }

# vm_libinput_start NODE OUTPUT: runs `libinput debug-events` on NODE,
# printing to OUTPUT, and returns once it has NODE open. Sets VM_LIBINPUT_PID.
vm_libinput_start() {
	stdbuf -oL libinput debug-events --device "$1" > "$2" 2>&1 &
	VM_LIBINPUT_PID=$!
	vm_wait_until 20 "libinput to open $1" vm_has_open "$VM_LIBINPUT_PID" "$1" ||
		{ cat "$2" >&2; return 1; }
}

# vm_libinput_stop OUTPUT: once the device is gone, waits for libinput to
# report DEVICE_REMOVED (so every earlier event has been printed) and stops it.
vm_libinput_stop() {
	vm_wait_until 10 "libinput to see the device removed" vm_file_has "$1" 'DEVICE_REMOVED'
	_rc=$?
	kill "$VM_LIBINPUT_PID" 2>/dev/null
	wait "$VM_LIBINPUT_PID" 2>/dev/null
	return $_rc
}

# vm_tool NAME: the path of one of this build's executables (gestured,
# gesturectl): beside $GESTURED_BIN when the caller set it, else in the
# checkout's .build/debug.
vm_tool() {
	if [ -n "${GESTURED_BIN:-}" ]; then
		echo "$(dirname "$GESTURED_BIN")/$1"
	else
		echo "$GESTURED_REPO/.build/debug/$1"
	fi
}

# vm_synth DESC LINE...: a recording for DESC of the gestures given one a
# line in `gesturectl synthesize`'s script format ("tap fingers=2",
# "swipe fingers=3 direction=up", ...), written to a new file whose path is
# printed. The project's own synthesizer makes it (swift build first).
vm_synth() {
	_desc=$1
	shift
	_script=$(mktemp "$VM_SCRATCH/gestures.XXXXXX")
	printf '%s\n' "$@" > "$_script"
	_rec=$(mktemp "$VM_SCRATCH/recording.XXXXXX")
	"$(vm_tool gesturectl)" synthesize "$_script" --device "$_desc" > "$_rec" || return 1
	echo "$_rec"
}

# vm_daemon_start [--socket-activated] [ARGS...]: starts this build's
# gestured as its service would: Type=notify (NOTIFY_SOCKET, ready on
# READY=1), its socket at $VM_SOCKET, its log in $VM_SCRATCH/daemon.log.
# Sets VM_DAEMON_PID.
#   default             gestured binds the socket itself; returns once ready.
#   --socket-activated  as gestured.socket would: systemd-socket-activate
#                       listens on $VM_SOCKET and starts gestured (same pid)
#                       with the socket as fd 3 (LISTEN_FDS) on the first
#                       connection. Returns once the socket listens; call
#                       vm_daemon_ready after connecting.
VM_SOCKET=/run/gestured/gestured.sock
VM_NOTES=$VM_SCRATCH/notify.log
vm_daemon_start() {
	_notify=/run/gestured-notify.sock
	: > "$VM_NOTES"
	socat -u UNIX-RECV:"$_notify" OPEN:"$VM_NOTES",creat,append &
	VM_NOTIFY_PID=$!
	vm_wait_until 10 "the notify socket" test -S "$_notify" || return 1
	mkdir -p "$(dirname "$VM_SOCKET")"
	if [ "${1:-}" = --socket-activated ]; then
		shift
		systemd-socket-activate -E NOTIFY_SOCKET="$_notify" -l "$VM_SOCKET" \
			"$(vm_tool gestured)" "$@" 2> "$VM_SCRATCH/daemon.log" &
		VM_DAEMON_PID=$!
		vm_wait_until 10 "systemd-socket-activate to listen" test -S "$VM_SOCKET"
		return
	fi
	# GESTURED_WRAPPER: a command line the daemon runs under (a profiler's),
	# which must keep its process id
	NOTIFY_SOCKET=$_notify ${GESTURED_WRAPPER:-} "$(vm_tool gestured)" --socket "$VM_SOCKET" "$@" 2> "$VM_SCRATCH/daemon.log" &
	VM_DAEMON_PID=$!
	vm_daemon_ready
}

# vm_daemon_ready: waits for the daemon's READY=1.
vm_daemon_ready() {
	vm_wait_until "${GESTURED_READY_TIMEOUT:-30}" "READY=1 from gestured" vm_file_has "$VM_NOTES" '^READY=1' ||
		{ cat "$VM_SCRATCH/daemon.log" >&2; return 1; }
}

# vm_daemon_stop: SIGTERM, then the daemon's exit status (124: it had not
# exited 15 s later); its log goes to stderr.
vm_daemon_stop() {
	kill -TERM "$VM_DAEMON_PID"
	vm_wait_exit 15 "$VM_DAEMON_PID"
	_rc=$?
	kill "$VM_NOTIFY_PID" 2> /dev/null
	sed 's/^/gestured: /' "$VM_SCRATCH/daemon.log" >&2
	return $_rc
}

# vm_client_start: a socket client (socat) that says hello and subscribes to
# everything; what it receives goes to $VM_RECEIVED. Returns once the daemon
# has confirmed the subscription. Requests go in through a FIFO this shell
# keeps open on fd 5, so the connection lasts until the daemon closes it.
# Sets VM_CLIENT_PID.
VM_RECEIVED=$VM_SCRATCH/client.out
vm_client_start() {
	_requests=$VM_SCRATCH/client.in
	rm -f "$_requests"
	mkfifo "$_requests"
	: > "$VM_RECEIVED"
	socat - UNIX-CONNECT:"$VM_SOCKET" < "$_requests" > "$VM_RECEIVED" &
	VM_CLIENT_PID=$!
	exec 5> "$_requests"
	echo '{"type":"hello","id":1,"protocol_version":1,"client_name":"kernel-tier"}' >&5
	echo '{"type":"subscribe","id":2}' >&5
	vm_wait_until 10 "the daemon to confirm the subscription" \
		vm_file_has "$VM_RECEIVED" '"request":"subscribe"' || { cat "$VM_RECEIVED" >&2; return 1; }
}

# vm_client_stop: waits for the client to end (the daemon closes the
# connection when it stops) and closes the request FIFO.
vm_client_stop() {
	vm_wait_exit 10 "$VM_CLIENT_PID" > /dev/null
	exec 5>&-
}

# vm_count FILE PATTERN: how many lines of FILE match PATTERN (ERE).
vm_count() { grep -cE -- "$2" "$1" 2>/dev/null || true; }

# vm_received_at_least N PATTERN: whether the client has received at least N
# lines matching PATTERN.
vm_received_at_least() { [ "$(vm_count "$VM_RECEIVED" "$2")" -ge "$1" ]; }

# vm_callgrind_slowed RECORDING: prints the path of RECORDING played
# GESTURED_CALLGRIND_SLOWDOWN times slower (default 8): a process under
# callgrind in the emulator takes longer than a frame's interval, and one that
# falls behind overflows the kernel's buffer and resynchronises, which is not
# the path to count. The same frames, further apart.
vm_callgrind_slowed() {
	awk -v f="${GESTURED_CALLGRIND_SLOWDOWN:-8}" '/^E: / { $2 = sprintf("%.6f", $2 * f) } { print }' "$1" > "$1.slow" || return 1
	echo "$1.slow"
}

# vm_callgrind_scratch: where callgrind's files go in the guest (whose /tmp is
# the host's, read-only): sets VM_CALLGRIND_OUT ($GESTURED_VM_OUT/callgrind,
# the profiles) and VM_VGDB_PREFIX (callgrind_control's --vgdb-prefix), and
# points TMPDIR at scratch.
vm_callgrind_scratch() {
	VM_CALLGRIND_OUT=$GESTURED_VM_OUT/callgrind
	mkdir -p "$VM_CALLGRIND_OUT"
	export TMPDIR=$VM_SCRATCH/tmp
	mkdir -p "$TMPDIR"
	VM_VGDB_PREFIX=--vgdb-prefix=$VM_SCRATCH/vgdb
}
