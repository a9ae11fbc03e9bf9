#!/usr/bin/env bash
# libinput and gestured side by side on real touchpad descriptions, in the
# kernel tier's QEMU guest: prints the agreement per description and
# configuration, and every disagreement with its reproducer.
#
# Usage: scripts/vm/libinput-compare/run.sh [--count N] [--seed S] [--out DIR] [--timeout S]
#            [--stall-ms MS] [--retries N] [DESC...]
#        scripts/vm/libinput-compare/run.sh --compare-only DIR
#   --count N   gestures per description (default 100)
#   --seed S    the first description's seed; the k-th uses S + k - 1 (default 1)
#   --out DIR   keep every description's files there (default
#               /tmp/gestured-libinput-compare): gestures, played.evemu,
#               kernel.evemu (gesturectl record), libinput.txt, shipped.json,
#               evaluation.json
#   --timeout S the guest's budget in seconds (default 120 + per description
#               20 + 3 per gesture; a loaded machine needs more)
#   --stall-ms MS  a burst whose frames reached the kernel (its timestamps,
#               read back by the player) more than MS away from the recording's
#               times, measured from the burst's first frame, was stalled by the
#               host and is played again (default 25; play.c)
#   --retries N how often a stalled burst is played again at most (default 3);
#               a line still stalled then is listed unmeasured, "stalled"
#   --compare-only DIR   no guest: compare again what an earlier run kept in
#               DIR (after a change to compare.awk) and print the figures
#   DESC...     evemu descriptions (default: the six touchpads below, read
#               from ../shared/corpus/devices or $GESTURED_CORPUS_DIR/devices)
#
# Run `swift build` first (the guest runs this checkout's .build/debug tools,
# or those beside $GESTURED_BIN). A description takes about 1.5 s a gesture
# under the guest's software emulation: 100 gestures on six pads, 16 min.
# What is compared and how: guest.sh, gestures.awk, compare.awk and
# docs/testing.md ("libinput side by side").
#
# A disagreement's reproducer is its description, its script line and the
# recordings in DIR/<slug>/: `gestured --replay DIR/<slug>/kernel.evemu
# --config config/gestured.conf --touches --verbose` shows what gestured did,
# and the line alone, in a file, through `gesturectl synthesize LINEFILE
# --device DESC`, makes a recording of that one gesture.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
count=100
seed=1
out=/tmp/gestured-libinput-compare
compareOnly=
budget=
while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) budget=$2; shift 2 ;;
	--stall-ms) export GESTURED_COMPARE_STALL_MS=$2; shift 2 ;;
	--retries) export GESTURED_COMPARE_RETRIES=$2; shift 2 ;;
	--compare-only) compareOnly=1; out=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "libinput-compare: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ -n "$compareOnly" ]; then
	[ -f "$out/facts" ] || { echo "libinput-compare: no facts in $out" >&2; exit 66; }
	while read -r subject slug index path; do
		[ "$subject" = device ] || continue
		echo "device $slug $index $path"
		d=$out/$slug
		awk -v slug="$slug" '{ print "script", slug, NR, $0 }' "$d/gestures"
		player=$d/player.txt
		[ -f "$player" ] || player=/dev/null
		awk -v device="$slug" -f "$here/compare.awk" "$d/gestures" "$d/kernel.evemu" \
			"$d/libinput.txt" "$d/shipped.json" "$d/evaluation.json" "$d/played.evemu" "$player"
	done < "$out/facts" > "$out/facts.new"
	mv "$out/facts.new" "$out/facts"
else
	if [ $# -eq 0 ]; then
		corpus=${GESTURED_CORPUS_DIR:-$repo/../shared/corpus}/devices
		[ -d "$corpus" ] || { echo "libinput-compare: no corpus at $corpus (set GESTURED_CORPUS_DIR or name descriptions)" >&2; exit 66; }
		set -- \
			"$repo/Tests/EndToEndTests/Devices/logitech-t650.desc" \
			"$corpus/evemu-devices/Logitech Wireless Touchpad.desc" \
			"$corpus/evemu-devices/SynPS2 Synaptics TouchPad.lenovo-p50.desc" \
			"$corpus/xorg-integration-tests/SynPS2-Synaptics-TouchPad-T440.desc" \
			"$corpus/evemu-devices/ETPS2 Elantech Touchpad-ASUS-N500JK.desc" \
			"$corpus/evemu-devices/ETPS2 Elantech Touchpad.Dell-Inspiron-7520.desc"
	fi
	for desc in "$@"; do
		[ -f "$desc" ] || { echo "libinput-compare: no such description: $desc" >&2; exit 66; }
	done
	tools=$(dirname "${GESTURED_BIN:-$repo/.build/debug/gestured}")
	[ -x "$tools/gestured" ] && [ -x "$tools/gesturectl" ] ||
		{ echo "libinput-compare: no gestured/gesturectl in $tools (swift build first)" >&2; exit 66; }

	# The guest's player (play.c: absolute deadlines, SCHED_FIFO), built here
	# against the host's headers, which the guest shares; GESTURED_COMPARE_PLAYER=
	# evemu plays with evemu-play instead (the earlier runs' player).
	if [ "${GESTURED_COMPARE_PLAYER:-}" != evemu ]; then
		"$repo/scripts/vm/setup.sh"
		bin=$("$repo/scripts/vm/setup.sh" --print-dir)/libinput-compare
		mkdir -p "$bin"
		cc -O2 -Wall -Wextra -o "$bin/play" "$here/play.c"
		export GESTURED_COMPARE_PLAYER=$bin/play
	fi
	rm -rf "$out"
	mkdir -p "$out"
	timeout=${budget:-$((120 + $# * (20 + 3 * count)))}
	status=0
	nice -n 10 "$repo/scripts/vm/run.sh" --timeout "$timeout" --out "$out" \
		"$repo/scripts/vm/libinput-compare/guest.sh" "$count" "$seed" "$@" > "$out/facts" 2> "$out/run.stderr" || status=$?
	if [ "$status" -ne 0 ]; then
		echo "libinput-compare: the guest failed with status $status; $out/run.stderr:" >&2
		tail -n 20 "$out/run.stderr" >&2
		exit "$status"
	fi

fi

# The figures: one line per description and configuration, then the
# disagreements (the facts are in $out/facts).
awk -v out="$out" '
function axis(path, code,    line, w) {
	while ((getline line < path) > 0) {
		split(line, w, " ")
		if (w[1] == "A:" && w[2] == code) { close(path); return w[3] " " w[4] " " (w[7] == "" ? 0 : w[7]) }
	}
	close(path); return ""
}
$1 == "device" {
	slug = $2; order[++n] = slug
	path = $0; sub(/^device [^ ]+ [0-9]+ /, "", path)
	split(axis(path, "2f"), s, " "); slots[slug] = s[2] == "" ? 1 : s[2] + 1
	split(axis(path, "35"), x, " "); res[slug] = x[3] + 0 ? x[3] " u/mm" : "none"
	split(axis(path, "3a"), p, " "); pressure[slug] = p[2] == "" ? "none" : p[1] "-" p[2]
}
$1 == "agreement" { agreement[$2, $3] = $4 "/" $5 (($5 + 0) ? sprintf(" %5.1f%%", 100 * $4 / $5) : "") }
$1 == "scripted" { scripted[$2, $3, $4] = $5 "/" $6 }
$1 == "notcomparable" { skipped[$2, $3] = $4 }
$1 == "disagreement" { disagreements = disagreements $0 "\n" }
$1 == "bursts" { problems = problems "  " $0 "\n" }
$1 == "lateness" { lateness[$2] = "player " $7 "/" $8 ": latest frame of a burst p50 " $4 " ms, max " $5 " ms, " $6 " of " $3 " bursts > 10 ms" }
$1 == "unmeasured" { unmeasured[$2]++; unmeasuredList = unmeasuredList "  " $0 "\n" }
$1 == "replayed" { replayed[$2] = $3 " bursts played again (" $4 " attempts more), " $5 " still stalled at the last attempt (bound " $6 " ms in the kernel'"'"'s timestamps)" }
END {
	printf "%-40s %5s %8s %8s %4s | %-15s %-15s | %-15s %-15s\n", "description", "slots", "res", "pressure", "unm.", "shipped agree", "(li/gd=script)", "evaluation", "(li/gd=script)"
	for (i = 1; i <= n; i++) {
		d = order[i]
		printf "%-40s %5s %8s %8s %4d | %-15s %-15s | %-15s %-15s\n", d, slots[d], res[d], pressure[d], unmeasured[d],
			agreement[d, "shipped"], scripted[d, "shipped", "libinput"] " " scripted[d, "shipped", "gestured"],
			agreement[d, "evaluation"], scripted[d, "evaluation", "libinput"] " " scripted[d, "evaluation", "gestured"]
	}
	print "not comparable with the shipped configuration (it has no one-finger tap and no scroll on touchpads): counted above as the difference to the evaluation column"
	print "unm.: bursts not judged because the guest could not keep up (compare.awk); li/gd=script: how often libinput / gestured gave the scripted outcome"
	for (i = 1; i <= n; i++) if (order[i] in lateness) printf "%s: %s\n", order[i], lateness[order[i]]
	for (i = 1; i <= n; i++) if (order[i] in replayed) printf "%s: %s\n", order[i], replayed[order[i]]
	if (unmeasuredList != "") printf "unmeasured:\n%s", unmeasuredList
	if (problems != "") printf "burst problems:\n%s", problems
	printf "%s", disagreements
	print "files: " out
}' "$out/facts"
