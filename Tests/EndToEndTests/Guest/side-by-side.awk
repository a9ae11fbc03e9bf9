# Compares libinput and gestured on one played recording, per touch burst.
# Used by libinput-side-by-side.sh:
#   awk -f side-by-side.awk SCRIPT KERNEL LIBINPUT GESTURED
# SCRIPT      the gesturectl synthesize lines, one gesture each
# KERNEL      gesturectl record of the device while it was played: kernel
#             times; each BTN_TOUCH press starts a burst. (The played
#             recording's own times would drift: evemu-play sleeps between
#             frames, and every late wake-up delays the rest.)
# LIBINPUT    libinput debug-events output (times relative to the first event)
# GESTURED    gestured --dry-run --json output (kernel times in µs)
# Prints expected/libinput/gestured labels per burst, the agreement, and each
# disagreement with its script line.

FNR == 1 { file++ }

# 1: what each script line should be
file == 1 {
	expected[FNR] = expectation($0)
	scriptLine[FNR] = $0
	lines = FNR
	next
}

# 2: bursts in kernel time (s)
file == 2 && $1 == "E:" {
	if (!haveStart) { kernelStart = $2 + 0; haveStart = 1 }
	if ($3 == "0001" && $4 == "014a" && $5 + 0 == 1) burstStart[++bursts] = $2 + 0
	next
}

# 3: libinput
file == 3 {
	t = -1
	found = 0
	for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+s$/) { t = substr($i, 1, length($i) - 1) + 0; f = i + 1; found = 1; break }
	if (!found) next
	# libinput subtracts its start from 32-bit milliseconds: an event stamped
	# just before the moment it took as its start comes out near 2^32 ms
	if (t > 2147483.648) t -= 4294967.296
	r = kernelStart + t
	if ($2 ~ /_BEGIN$/) { liBurst = burstOf(r); liFingers = $f; dx = 0; dy = 0; scale = 1 }
	if ($2 == "GESTURE_SWIPE_UPDATE" || $2 == "GESTURE_PINCH_UPDATE") {
		s = $0; sub(/.*\(/, "", s); sub(/unaccelerated.*/, "", s); gsub(/ /, "", s)
		split(s, d, "/"); dx += d[1]; dy += d[2]
	}
	if ($2 == "GESTURE_PINCH_UPDATE") { s = $0; sub(/.*unaccelerated\) */, "", s); split(s, p, " "); scale = p[1] + 0 }
	if ($0 ~ /cancelled/) next
	if ($2 == "GESTURE_SWIPE_END") label("li", liBurst, 3, "swipe " liFingers " " direction(dx, dy))
	if ($2 == "GESTURE_PINCH_END") label("li", liBurst, 3, "pinch " (scale < 1 ? "in" : "out"))
	if ($2 == "GESTURE_HOLD_END") label("li", liBurst, 1, "hold " liFingers)
	if ($2 == "POINTER_BUTTON" && $(f + 2) ~ /^pressed/) {
		taps = $f == "BTN_RIGHT" ? 2 : $f == "BTN_MIDDLE" ? 3 : $f == "BTN_LEFT" ? 1 : 0
		label("li", burstOf(r), 2, "tap " taps)
	}
	next
}

# 4: gestured
file == 4 && /"type":"gesture"/ {
	r = jnum("time_us") / 1000000
	id = jstr("gesture_id"); name = jstr("name"); state = jstr("state")
	if (state == "began") { gdBurst[id] = burstOf(r); gdFingers[id] = jnum("fingers") }
	if (state == "recognized") {
		if (name ~ /swipe/) label("gd", burstOf(r), 3, "swipe " jnum("fingers") " " jstr("direction"))
		else if (name ~ /tap/) label("gd", burstOf(r), 2, "tap " jnum("fingers"))
		else label("gd", burstOf(r), 1, name)
	}
	if (state == "ended" && (id in gdBurst)) {
		if (jstr("kind") == "pinch") label("gd", gdBurst[id], 3, "pinch " (jnum("scale") < 1 ? "in" : "out"))
		else if (jstr("kind") == "long_press") label("gd", gdBurst[id], 1, "hold " gdFingers[id])
		else label("gd", gdBurst[id], 1, name)
	}
}

END {
	if (bursts != lines) print "bursts", bursts, "for", lines, "script lines"
	for (k = 1; k <= bursts; k++) {
		li = (k in liLabel) ? liLabel[k] : "none"
		gd = (k in gdLabel) ? gdLabel[k] : "none"
		print "expected", k, expected[k]
		print "libinput", k, li
		print "gestured", k, gd
		if (li == gd) agree++
		else disagreements = disagreements "disagreement " k " | " scriptLine[k] " | libinput: " li " | gestured: " gd "\n"
	}
	printf "%s", disagreements
	print "agreement", agree + 0, bursts + 0
}

function expectation(line,    w, n, i, kv, v) {
	n = split(line, w, " ")
	for (i = 2; i <= n; i++) { split(w[i], kv, "="); v[kv[1]] = kv[2] }
	if (w[1] == "swipe") return "swipe " v["fingers"] " " v["direction"]
	if (w[1] == "pinch") return "pinch " (v["scale"] + 0 < 1 ? "in" : "out")
	if (w[1] == "tap") return "tap " v["fingers"]
	if (w[1] == "long-press") return "hold " v["fingers"]
	return w[1]
}

# the burst a kernel time (s) falls in: from 50 ms before its first
# touch to 50 ms before the next burst's
function burstOf(r,    k) {
	for (k = bursts; k > 1; k--) if (r >= burstStart[k] - 0.05) return k
	return 1
}

function label(reader, k, priority, text) {
	if (reader == "li") {
		if (priority >= liPriority[k]) { liPriority[k] = priority; liLabel[k] = text }
	} else if (priority >= gdPriority[k]) { gdPriority[k] = priority; gdLabel[k] = text }
}

function direction(x, y) {
	if (x * x >= y * y) return x < 0 ? "left" : "right"
	return y < 0 ? "up" : "down"
}

function jstr(key,    s) {
	if (!match($0, "\"" key "\":\"[^\"]*\"")) return ""
	s = substr($0, RSTART, RLENGTH); sub(/^"[^"]*":"/, "", s); sub(/"$/, "", s)
	return s
}

function jnum(key,    s) {
	if (!match($0, "\"" key "\":-?[0-9.eE+-]+")) return 0
	s = substr($0, RSTART, RLENGTH); sub(/^"[^"]*":/, "", s)
	return s + 0
}
