#!/bin/sh
# Guest script of scripts/vm/latency/run.sh. The same gestures are played on
# uinput clickpads of one description (the T650) and read by
#   floor     a bare libevdev reader
#   relay     a bare libevdev reader forwarding frames over a Unix socket to
#             a second process (the floor of any daemon: two wake-ups)
#   libinput  libinput's gesture events through its C library
#   gestured  a socket client of the daemon
#   before    the same with $GESTURED_BASELINE_BIN, when set (a build to
#             compare, measured alone in the same rounds: alone only)
# Phase "alone": ROUNDS cycles; in each, every reader in turn has the guest's
# one CPU to itself (a fresh node, the others not running, the daemon only
# started for its turn), so no reader waits behind another. Phase
# "together": all four read one node at once, as a desktop would run them.
# In each turn of the alone phase the reader, freshly started, first reads
# one unmeasured cycle (a fresh process pages its code in over the guest's
# 9p root, fills its caches and, for the daemon, builds its recognizers'
# state on first use), then the measured one, as a reader that has been
# running would see it; the first cycle's figures are printed as "cold".
# Each prints "<phase> <reader> samples N p50 P p99 Q" (µs; phase alone,
# cold or together); alone and cold, also the median CPU time the reader's
# processes used per frame played (the daemon and its client for gestured).
# Usage: guest.sh BINDIR ROUNDS
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
rounds=$2
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/logitech-t650.desc
gestures="swipe fingers=3 direction=left
swipe fingers=4 direction=up
pinch scale=2
pinch scale=0.5"

cycle=$(vm_synth "$desc" "$gestures") || exit 1
set --
i=0
while [ "$i" -lt "$rounds" ]; do
	set -- "$@" "$gestures"
	i=$((i + 1))
done
all=$(vm_synth "$desc" "$@") || exit 1

vm_start_udevd || exit 1
raw=$VM_SCRATCH/raw
mkdir -p "$raw"
frames=$(grep -c '^E: [0-9.]* 0000 0000 0000' "$cycle")

# cpu_ns PID: the CPU time all threads of PID have used (ns, schedstat;
# printf: mawk prints numbers over 2^31 in exponent form).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%d\n", t }'; }

# play_cycle CPUFILE PID...: plays the cycle and appends to CPUFILE the CPU
# time the processes used for it, per frame.
play_cycle() {
	_cpufile=$1
	shift
	_before=0
	for _p in "$@"; do _before=$((_before + $(cpu_ns "$_p"))); done
	vm_play "$VM_NODE" "$cycle" || return 1
	_after=0
	for _p in "$@"; do _after=$((_after + $(cpu_ns "$_p"))); done
	echo "$(( (_after - _before) / frames / 1000 ))" >> "$_cpufile"
}

# play_measured LABEL PID...: one turn's two cycles: the unmeasured one
# (its CPU noted as cold), the moment between them (monotonic µs: samples
# of older frames are the first cycle's), then the measured one.
play_measured() {
	_label=$1
	shift
	play_cycle "$raw/$_label.cold.cpu" "$@" || return 1
	"$bin/latency-now" >> "$raw/$_label.bounds"
	play_cycle "$raw/$_label.cpu" "$@"
}

# alone_reader LABEL PROGRAM: one turn of a bare reader on a fresh node.
alone_reader() {
	vm_create_device "$desc" || return 1
	"$bin/$2" "$VM_NODE" "$raw/$1.$i" > "$VM_SCRATCH/$1.out" 2>&1 &
	_pid=$!
	vm_wait_until 30 "$1 to open $VM_NODE" vm_has_open "$_pid" "$VM_NODE" || return 1
	# the relay's receiving child works too
	play_measured "$1" "$_pid" $(cat /proc/"$_pid"/task/*/children 2>/dev/null) || return 1
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 30 "$_pid" > /dev/null
}

# alone_gestured [LABEL BINARY]: one turn of the daemon (found the node by
# hot-plug) and its socket client; LABEL "gestured" and $GESTURED_BIN unless
# given.
alone_gestured() {
	_label=${1:-gestured}
	_saved=${GESTURED_BIN:-}
	[ -n "${2:-}" ] && GESTURED_BIN=$2
	vm_daemon_start
	_started=$?
	GESTURED_BIN=$_saved
	[ "$_started" = 0 ] || return 1
	"$bin/latency-client" "$VM_SOCKET" "$raw/$_label.$i" > "$VM_SCRATCH/$_label.out" 2>&1 &
	_client=$!
	vm_create_device "$desc" || return 1
	vm_wait_until 30 "the daemon to open $VM_NODE" vm_has_open "$VM_DAEMON_PID" "$VM_NODE" || return 1
	play_measured "$_label" "$VM_DAEMON_PID" "$_client" || return 1
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 30 "$_client" > /dev/null
	vm_daemon_stop 2> /dev/null
}

i=0
while [ "$i" -lt "$rounds" ]; do
	alone_reader floor latency-floor || exit 1
	alone_reader relay latency-relay || exit 1
	alone_reader libinput latency-libinput || exit 1
	# the baseline goes first every other round, so that neither build always
	# follows the same reader
	if [ -n "${GESTURED_BASELINE_BIN:-}" ] && [ $((i % 2)) = 1 ]; then alone_gestured before "$GESTURED_BASELINE_BIN" || exit 1; fi
	alone_gestured || exit 1
	if [ -n "${GESTURED_BASELINE_BIN:-}" ] && [ $((i % 2)) = 0 ]; then alone_gestured before "$GESTURED_BASELINE_BIN" || exit 1; fi
	i=$((i + 1))
done
labels="floor relay libinput gestured"
[ -n "${GESTURED_BASELINE_BIN:-}" ] && labels="$labels before"
# summarise PHASE LABEL: p50/p99 of the latencies read on stdin, one a line.
summarise() {
	sort -n | awk -v phase="$1" -v label="$2" '
		{ v[NR] = $1 }
		END {
			if (NR == 0) { print phase " " label " samples 0"; exit }
			p50 = int((NR * 50 + 99) / 100); p99 = int((NR * 99 + 99) / 100)
			print phase " " label " samples " NR " p50 " v[p50 ? p50 : 1] " p99 " v[p99 ? p99 : 1]
		}'
}
for label in $labels; do
	# each round's samples ("FRAME LATENCY"), split at that round's moment
	# between its cycles
	: > "$raw/$label.warm"
	: > "$raw/$label.cold"
	r=0
	while [ "$r" -lt "$rounds" ]; do
		bound=$(sed -n "$((r + 1))p" "$raw/$label.bounds")
		[ -f "$raw/$label.$r" ] && awk -v bound="$bound" -v warm="$raw/$label.warm" -v cold="$raw/$label.cold" '
			{ print $2 >> ($1 >= bound ? warm : cold) }' "$raw/$label.$r"
		r=$((r + 1))
	done
	for phase in alone cold; do
		file=$raw/$label.warm cpu=$raw/$label.cpu
		[ "$phase" = cold ] && file=$raw/$label.cold cpu=$raw/$label.cold.cpu
		summarise "$phase" "$label" < "$file"
		sort -n "$cpu" | awk -v phase="$phase" -v label="$label" '{ v[NR] = $1 } END { print phase " " label " cpu-us-per-frame " v[int((NR + 1) / 2)] }'
	done
done

# together: the four readers on one node, the same gestures ROUNDS times.
vm_daemon_start || exit 1
"$bin/latency-client" "$VM_SOCKET" > "$VM_SCRATCH/client.out" 2>&1 &
client=$!
vm_create_device "$desc" || exit 1
node=$VM_NODE
"$bin/latency-floor" "$node" > "$VM_SCRATCH/floor.out" 2>&1 &
floor=$!
"$bin/latency-relay" "$node" > "$VM_SCRATCH/relay.out" 2>&1 &
relay=$!
"$bin/latency-libinput" "$node" > "$VM_SCRATCH/libinput.out" 2>&1 &
libinput=$!
vm_wait_until 30 "the floor reader" vm_has_open "$floor" "$node" &&
	vm_wait_until 30 "the relay reader" vm_has_open "$relay" "$node" &&
	vm_wait_until 30 "the libinput reader" vm_has_open "$libinput" "$node" &&
	vm_wait_until 30 "the daemon to open $node" vm_has_open "$VM_DAEMON_PID" "$node" || exit 1

vm_play "$node" "$all" || exit 1
vm_remove_device "$VM_DEVICE_PID"
for pid in "$floor" "$relay" "$libinput" "$client"; do vm_wait_exit 30 "$pid" > /dev/null; done
cat "$VM_SCRATCH/floor.out" "$VM_SCRATCH/relay.out" "$VM_SCRATCH/libinput.out" "$VM_SCRATCH/client.out" |
	sed 's/^/together /'

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
