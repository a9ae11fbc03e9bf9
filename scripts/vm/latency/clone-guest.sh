#!/bin/sh
# Guest script of scripts/vm/latency/clone-run.sh: latency through gestured's
# clone of a grabbed touchscreen (Grab=yes, issue 13) against libinput on the
# touchscreen itself, in one guest run. A one-finger drag, every frame at a
# new x, is played ROUNDS times by latency-touch-player, which notes when it
# wrote each frame; latency-touch-libinput notes when libinput delivered the
# touch event of that x and the kernel's stamp of its frame. Each round
# measures, one after the other:
#   direct  libinput reads the touchscreen, no daemon;
#   floor   latency-clone-floor grabs it and copies every read into a uinput
#           clone at once, libinput reads that clone: one hop, nothing else;
#   clone   the daemon ($GESTURED_BIN) grabs it, libinput reads its clone;
#   before  the same with $GESTURED_BASELINE_BIN, when set (a build to compare);
#   spin    with GESTURED_FLOOR_SPIN=N set: the floor spinning N turns of a
#           6-instruction loop before each write (LATENCY_FLOOR_SPIN), what
#           that many hot instructions add to a hop under the emulator;
#   calls, pages  with GESTURED_FLOOR_CALLS=1 set: the floor making 256
#           calls from distinct call sites before each write, then 64 calls
#           to functions a page apart (LATENCY_FLOOR_CALLS): what a call site
#           and a code page run once per wake-up add to a hop;
#   reader, relay  the latency benchmark's bare libevdev reader and its relay
#           (scripts/vm/latency/run.sh: the reader forwarding each frame over a
#           Unix socket to a second process) on a fresh touchscreen of the same
#           description, the same drag: what one hop adds in this guest run,
#           issue 13's yardstick for the clone (relay - reader against
#           clone - direct). Their latency is the frame's kernel stamp to the
#           wake-up (reader) or the receipt (relay); only the "all" line.
# Prints "<reader> samples N p50 P p99 Q" (µs, player's write to libinput's
# event), then "<reader>.hop ..." (player's write to the kernel's stamp of the
# frame libinput read: the hop's own time, about 0 for direct) and
# "<reader>.libinput ..." (that stamp to libinput's event), "<reader>.landing-hop
# samples N p50 P max M" and "<reader>.landing ..." (each drag's touch-down, one
# a round: its hop, and its whole latency), and the frames not matched.
# Usage: clone-guest.sh BINDIR ROUNDS
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
bin=$1
rounds=$2
desc=$GESTURED_REPO/Tests/EndToEndTests/Devices/elan-touchscreen.desc
resolution=$(awk '$1 == "A:" && $2 == "35" { print $7 }' "$desc")
drag=$(vm_synth "$desc" "drag fingers=1 x=0.1 y=0.5 to-x=0.9 to-y=0.5 duration=2") || exit 1
raw=$VM_SCRATCH/raw
mkdir -p "$raw"
vm_start_udevd || exit 1

confdir=$VM_SCRATCH/grab-config
mkdir -p "$confdir/conf.d"
cp "$GESTURED_REPO/config/gestured.conf" "$confdir/gestured.conf"
printf '[Device touchscreens]\nMatchKind=touchscreen\nGrab=yes\n' > "$confdir/conf.d/grab.conf"

# measure LABEL READ_NODE: one round, libinput on READ_NODE, the drag played
# on the touchscreen; appends "latency" lines for LABEL.
measure() {
	: > "$raw/sent" && : > "$raw/seen"
	"$bin/latency-touch-libinput" "$2" "$resolution" "$raw/seen" 2> "$VM_SCRATCH/$1.err" &
	_reader=$!
	vm_wait_until 30 "libinput to open $2" vm_has_open "$_reader" "$2" || return 1
	"$bin/latency-touch-player" "$source" "$drag" "$raw/sent" || return 1
	# libinput has printed the last frame once the lift is through; wait for the count
	# (the last frame lifts the finger: libinput reports no motion for it)
	_frames=$(($(wc -l < "$raw/sent") - 1))
	vm_wait_until 10 "libinput to deliver the drag" sh -c "[ \$(wc -l < '$raw/seen') -ge $_frames ]" ||
		vm_log "$1: $(wc -l < "$raw/seen") of $_frames frames seen"
	kill "$_reader" 2>/dev/null
	wait "$_reader" 2>/dev/null
	awk -v all="$raw/$1" -v hop="$raw/$1.hop" -v li="$raw/$1.libinput" -v land="$raw/$1.landing" '
		NR == FNR { sent[$1] = $2; if (FNR == 1) first = $1; next }
		($1 in sent) { print $2 - sent[$1] >> all; print $3 - sent[$1] >> hop; print $2 - $3 >> li
			# the first frame of the drag is its touch-down: its hop on its own
			if ($1 == first) print $3 - sent[$1], $2 - sent[$1] >> land
			delete sent[$1] }
		END { n = 0; for (x in sent) n++; print n > "/dev/stderr" }' \
		"$raw/sent" "$raw/seen" 2>> "$raw/$1.missed"
}

summary() {
	for _part in "" .hop .libinput; do
		percentiles "$1$_part"
	done
	# the touch-downs, one a round: their hop, and their whole latency, median and worst
	if [ -s "$raw/$1.landing" ]; then
		for _k in 1 2; do
			awk -v k=$_k '{ print $k }' "$raw/$1.landing" | sort -n | awk -v label="$1.landing$([ $_k = 1 ] && echo -hop)" '
				{ v[NR] = $1 } END { print label, "samples", NR, "p50", v[int((NR + 1) / 2)], "max", v[NR] }'
		done
	fi
	echo "$1 unmatched-frames $(awk '{ n += $1 } END { print n + 0 }' "$raw/$1.missed")"
}

percentiles() {
	sort -n "$raw/$1" | awk -v label="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print label, "samples 0"; exit }
		p50 = v[int((NR * 50 + 99) / 100)]; p99 = v[int((NR * 99 + 99) / 100)]
		print label, "samples", NR, "p50", p50, "p99", p99 }'
}

find_clone() {
	clone=
	for _d in /sys/class/input/event*; do
		[ "$(cat "$_d/device/phys" 2>/dev/null)" = "gestured-clone/$(basename "$source")" ] &&
			clone=/dev/input/$(basename "$_d")
	done
	[ -n "$clone" ]
}
no_clone() { ! find_clone; }

# daemon_round LABEL BINARY: one round of the daemon BINARY's clone.
daemon_round() {
	_saved=${GESTURED_BIN:-}
	GESTURED_BIN=$2
	vm_daemon_start --config "$confdir/gestured.conf" || return 1
	GESTURED_BIN=$_saved
	vm_wait_until 20 "the clone" find_clone || return 1
	vm_settle
	# a fresh daemon's first frames page its code in (over 9p, in the guest): one drag
	# unmeasured first, as a daemon that has been running would be
	measure warm-up "$clone" || return 1
	measure "$1" "$clone" || return 1
	vm_daemon_stop 2> /dev/null
	vm_wait_until 10 "the clone to go" no_clone
}

# floor_round [LABEL SPIN [CALLS]]: one round through latency-clone-floor's
# clone (LABEL default floor, SPIN default 0, CALLS calls or pages: see
# clone-floor.c).
floor_round() {
	LATENCY_FLOOR_SPIN=${2:-0} LATENCY_FLOOR_CALLS=${3:-} "$bin/latency-clone-floor" "$source" > "$raw/floor.node" 2> "$VM_SCRATCH/floor.err" &
	_floor=$!
	vm_wait_until 10 "latency-clone-floor's clone" sh -c "[ -s '$raw/floor.node' ]" || { cat "$VM_SCRATCH/floor.err" >&2; return 1; }
	vm_settle
	measure warm-up "$(cat "$raw/floor.node")" || return 1
	measure "${1:-floor}" "$(cat "$raw/floor.node")" || return 1
	kill "$_floor"
	wait "$_floor" 2>/dev/null
	return 0
}

# hop_round LABEL PROGRAM: one round of latency-PROGRAM (floor or relay) on a
# fresh touchscreen: the drag once unmeasured, then once measured (samples of
# frames stamped after the moment between the two); the device is then
# removed, which ends the reader and makes it save its samples.
hop_round() {
	_node_saved=$VM_NODE
	_device_saved=$VM_DEVICE_PID
	vm_create_device "$desc" || return 1
	_node=$VM_NODE
	: > "$raw/$1.pairs"
	"$bin/latency-$2" "$_node" "$raw/$1.pairs" > "$VM_SCRATCH/$1.out" 2>&1 &
	_hop_reader=$!
	vm_wait_until 30 "$1 to open $_node" vm_has_open "$_hop_reader" "$_node" || return 1
	"$bin/latency-touch-player" "$_node" "$drag" /dev/null || return 1
	_bound=$("$bin/latency-now")
	"$bin/latency-touch-player" "$_node" "$drag" /dev/null || return 1
	vm_remove_device "$VM_DEVICE_PID"
	vm_wait_exit 30 "$_hop_reader" > /dev/null
	VM_NODE=$_node_saved
	VM_DEVICE_PID=$_device_saved
	awk -v bound="$_bound" '$1 > bound { print $2 }' "$raw/$1.pairs" >> "$raw/$1"
}

vm_create_device "$desc" || exit 1
source=$VM_NODE
labels="direct floor clone"
[ -n "${GESTURED_BASELINE_BIN:-}" ] && labels="$labels before"
[ -n "${GESTURED_FLOOR_SPIN:-}" ] && labels="$labels spin"
[ -n "${GESTURED_FLOOR_CALLS:-}" ] && labels="$labels calls pages"
for l in $labels reader relay; do : > "$raw/$l"; : > "$raw/$l.hop"; : > "$raw/$l.libinput"; : > "$raw/$l.missed"; done
# the readers take turns within each round, so that the guest's load drifts alike for all
i=0
while [ "$i" -lt "$rounds" ]; do
	measure direct "$source" || exit 1
	floor_round || exit 1
	daemon_round clone "$GESTURED_BIN" || exit 1
	if [ -n "${GESTURED_BASELINE_BIN:-}" ]; then daemon_round before "$GESTURED_BASELINE_BIN" || exit 1; fi
	if [ -n "${GESTURED_FLOOR_SPIN:-}" ]; then floor_round spin "$GESTURED_FLOOR_SPIN" || exit 1; fi
	if [ -n "${GESTURED_FLOOR_CALLS:-}" ]; then
		floor_round calls 0 calls || exit 1
		floor_round pages 0 pages || exit 1
	fi
	hop_round reader floor || exit 1
	hop_round relay relay || exit 1
	i=$((i + 1))
done
for l in $labels; do summary "$l"; done
percentiles reader
percentiles relay
exit 0
