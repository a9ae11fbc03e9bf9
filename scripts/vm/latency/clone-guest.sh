#!/bin/sh
# Guest script of scripts/vm/latency/clone-run.sh: latency through gestured's
# clone of a grabbed touchscreen (Grab=yes, issue 13) against libinput on the
# touchscreen itself, in one guest run. A one-finger drag, every frame at a
# new x, is played ROUNDS times by latency-touch-player, which notes when it
# wrote each frame; latency-touch-libinput notes when libinput delivered the
# touch event of that x:
#   direct  libinput reads the touchscreen, no daemon;
#   clone   the daemon grabs it, libinput reads the clone.
# Prints "<reader> samples N p50 P p99 Q" (µs) and the frames not matched.
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
	awk 'NR == FNR { sent[$1] = $2; next } ($1 in sent) { print $2 - sent[$1]; delete sent[$1] }
		END { n = 0; for (x in sent) n++; print n > "/dev/stderr" }' \
		"$raw/sent" "$raw/seen" >> "$raw/$1" 2>> "$raw/$1.missed"
}

summary() {
	sort -n "$raw/$1" | awk -v label="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print label, "samples 0"; exit }
		p50 = v[int((NR * 50 + 99) / 100)]; p99 = v[int((NR * 99 + 99) / 100)]
		print label, "samples", NR, "p50", p50, "p99", p99 }'
	echo "$1 unmatched-frames $(awk '{ n += $1 } END { print n + 0 }' "$raw/$1.missed")"
}

vm_create_device "$desc" || exit 1
source=$VM_NODE
: > "$raw/direct"
: > "$raw/clone"
i=0
while [ "$i" -lt "$rounds" ]; do
	measure direct "$source" || exit 1
	i=$((i + 1))
done
vm_daemon_start --config "$confdir/gestured.conf" || exit 1
clone=
find_clone() {
	for _d in /sys/class/input/event*; do
		[ "$(cat "$_d/device/phys" 2>/dev/null)" = "gestured-clone/$(basename "$source")" ] &&
			clone=/dev/input/$(basename "$_d")
	done
	[ -n "$clone" ]
}
vm_wait_until 20 "the clone" find_clone || exit 1
vm_settle
i=0
while [ "$i" -lt "$rounds" ]; do
	measure clone "$clone" || exit 1
	i=$((i + 1))
done
vm_daemon_stop 2> /dev/null
summary direct
summary clone
exit 0
