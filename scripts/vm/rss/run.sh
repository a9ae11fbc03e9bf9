#!/usr/bin/env bash
# Resident memory of the gestured daemon with 0 and with 2 real evdev devices
# open, measured in the kernel tier's guest; a benchmark: it prints figures,
# asserts nothing.
#
# Usage: scripts/vm/rss/run.sh GESTURED [GESTURED...]
#
# Each GESTURED is a gestured binary (e.g. this checkout's release build and
# main's, built the same way in another worktree); they are measured one after
# the other in one guest boot. For each: the daemon starts (udev on, the
# shipped defaults), and after 10 s idle `gestured-bench rss --pid` prints
# its /proc/PID/smaps breakdown; then with two uinput devices open (the T650
# clickpad and an ELAN touchscreen); then after a subscribed client received
# a few gestures played on both (guest.sh). Last, `libinput debug-events` on
# the same two devices, for reference. gestured-bench and the gesturectl that
# synthesizes the gestures are this checkout's release builds (GESTURED_BENCH,
# GESTURED_CTL override):
#   make build SHIPPED=1
#   swift build -c release --product gestured-bench $(make -s shipped-flags)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/vm/rss/run.sh GESTURED [GESTURED...]" >&2; exit 2; }
bench=${GESTURED_BENCH:-$repo/.build/release/gestured-bench}
[ -x "$bench" ] || { echo "scripts/vm/rss/run.sh: no $bench (swift build -c release --product gestured-bench)" >&2; exit 2; }
ctl=${GESTURED_CTL:-$repo/.build/release/gesturectl}
[ -x "$ctl" ] || { echo "scripts/vm/rss/run.sh: no $ctl (make build SHIPPED=1)" >&2; exit 2; }
bins=()
for b in "$@"; do
	[ -x "$b" ] || { echo "scripts/vm/rss/run.sh: $b is not an executable" >&2; exit 2; }
	bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")")
done
"$repo/scripts/vm/setup.sh"
work=$(mktemp -d /tmp/gestured-rss.XXXXXX)
trap 'rm -rf "$work"' EXIT
devices=$repo/Tests/EndToEndTests/Devices
printf '%s\n' "swipe fingers=3 direction=left" "pinch scale=2" "tap fingers=2" > "$work/pad.gestures"
printf '%s\n' "pinch scale=0.5" "rotation angle=60" "tap fingers=1" > "$work/ts.gestures"
"$ctl" synthesize "$work/pad.gestures" --device "$devices/logitech-t650.desc" > "$work/pad.evemu"
"$ctl" synthesize "$work/ts.gestures" --device "$devices/elan-touchscreen.desc" > "$work/ts.evemu"
"$repo/scripts/vm/run.sh" --timeout $((300 + ${#bins[@]} * 240)) "$here/guest.sh" "$bench" "$work/pad.evemu" "$work/ts.evemu" "${bins[@]}"
