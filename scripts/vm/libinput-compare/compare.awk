# Compares libinput and gestured on one played recording, touch burst by touch
# burst, in one outcome vocabulary. Used by guest.sh:
#   awk -v device=SLUG -f compare.awk SCRIPT KERNEL LIBINPUT SHIPPED EVALUATION PLAYED [PLAYER]
# SCRIPT      the gesturectl synthesize lines (gestures.awk), one gesture each
# KERNEL      gesturectl record of the device while it was played: kernel
#             times; each BTN_TOUCH press starts a burst (the played
#             recording's own times drift: evemu-play sleeps between frames and
#             every late wake-up delays the rest)
# LIBINPUT    libinput debug-events --enable-tap (times relative to its first
#             timed event, which is the first kernel event)
# SHIPPED     gestured --dry-run --json with config/gestured.conf
# EVALUATION  gestured --dry-run --json with config/evaluation.conf
# PLAYED      the recording that was played (gesturectl synthesize)
# PLAYER      what the guest's player (play.c) reported: per attempt at a
#             burst, how late its first frame went out and the latest of its
#             frames after that, which script line it plays, and how far the
#             kernel's timestamps strayed from the recording's (absent or
#             empty with evemu-play: then burst K is line K)
#
# Stalled bursts are played again (play.c): a burst whose frames reached the
# kernel, by the timestamps read back from the node, more than the player's
# bound (stall_ms, 25 ms) away from the recording's times, measured from the
# burst's first frame, is not the input that was designed; the player plays it
# again after its recorded pause, up to its retries. The kernel then has more
# bursts than the script has lines; the player's report says which line each
# plays, and each line is judged on its last attempt. A line whose last
# attempt still strayed is unmeasured ("stalled-<ms>-after-<n>-attempts"),
# listed and counted, never judged; no disagreement is dropped for any other
# reason.
#
# A burst is unmeasured when libinput said "your system is too slow" during
# it (a timer of its fired late, so its outcome is the guest's, not its own):
# the software-emulated guest shares two cores with the rest of the machine.
# Unmeasured bursts are listed, not judged. Playing can run late under
# emulation (evemu-play sleeps between frames and its lateness adds up; the
# project's player, play.c, writes each frame at its absolute deadline): a
# burst lasting longer in the kernel's times than in the played recording's,
# the same for both readers, says by how much ("played +N ms"), and the
# player's own report how late the burst's first and latest frames went out.
#
# The outcome vocabulary (docs/testing.md, "libinput side by side"):
#   libinput                                   gestured                       label
#   POINTER_BUTTON pressed BTN_LEFT/RIGHT/     tap recognized, N fingers      tap N
#     MIDDLE (tapping, lrm map: 1/2/3 fingers)
#   POINTER_SCROLL_FINGER / POINTER_AXIS       pan ended (scroll), direction  scroll <dir>
#     (finger), direction of the summed          of its dx_mm/dy_mm
#     deltas
#   GESTURE_SWIPE_END (not cancelled),         swipe recognized, fingers,     swipe N <dir>
#     N fingers, direction of summed deltas      direction
#   GESTURE_PINCH_END (not cancelled), last    pinch ended, scale < 1 or > 1  pinch in|out
#     scale < 1 or > 1
#   GESTURE_HOLD_END (not cancelled), N        long_press ended, fingers at   hold N
#     fingers                                    its beginning
#   nothing of the above                       nothing of the above           none
# A burst with several: swipe, pinch or scroll over a tap, a tap over a hold
# (libinput begins pinches and taps as holds).
#
# Only outcomes the configuration can produce on a touchpad are compared: a
# scripted gesture whose label the configuration cannot give is "not
# comparable" (counted, not judged), and each reader's labels outside the
# vocabulary are dropped before the burst's label is chosen.
#   shipped     tap 2, tap 3, swipe 3, swipe 4, pinch, hold 3
#   evaluation  the same, and tap 1, scroll
#
# Prints, SLUG first after the subject:
#   expected <slug> <k> <label>               what the script line is
#   libinput <slug> <k> <label>               libinput's label, all of its vocabulary
#   gestured <slug> <config> <k> <label>
#   scripted <slug> <config> <reader> <matching> <comparable>   each reader against the script
#   agreement <slug> <config> <agreeing> <comparable>
#   disagreement <slug> <config> <k> | <script line> | libinput: <label> | gestured: <label>
#   notcomparable <slug> <config> <count> <labels...>
#   unmeasured <slug> <k> <reason>
#   late <slug> <k> <start ms> <latest frame ms>   per burst, from PLAYER
#   lateness <slug> <bursts> <p50 ms> <max ms> <bursts with a frame > 10 ms late>   from PLAYER (last attempts)
#   replayed <slug> <lines played again> <attempts beyond one each> <lines still stalled> <bound ms>   from PLAYER
#   bursts <slug> <n> for <m> script lines    only when the two differ

BEGIN {
	vocabulary["shipped"] = "tap 2,tap 3,swipe 3,swipe 4,pinch,hold 3"
	vocabulary["evaluation"] = "tap 1,tap 2,tap 3,scroll,swipe 3,swipe 4,pinch,hold 3"
	configs = "shipped evaluation"
}

FNR == 1 { file++ }

file == 1 {
	expected[FNR] = expectation($0)
	scriptLine[FNR] = $0
	lines = FNR
	next
}

# gesturectl record starts with the slots' last values as a resync (SYN_DROPPED,
# values, SYN_REPORT), stamped when it opened the device: not an event libinput saw.
file == 2 && $1 == "E:" && $3 == "0000" && $4 == "0003" { inSeed = 1; next }
file == 2 && $1 == "E:" && inSeed { if ($3 == "0000" && $4 == "0000") inSeed = 0; next }
file == 2 && $1 == "E:" {
	if (!haveStart) { kernelStart = $2 + 0; haveStart = 1 }
	if ($3 == "0001" && $4 == "014a" && $5 + 0 == 1) burstStart[++bursts] = $2 + 0
	if ($3 == "0001" && $4 == "014a" && $5 + 0 == 0) kernelLength[bursts] = $2 - burstStart[bursts]
	next
}

file == 6 && $1 == "E:" {
	if ($3 == "0001" && $4 == "014a" && $5 + 0 == 1) { playedBursts++; playedStart = $2 + 0 }
	if ($3 == "0001" && $4 == "014a" && $5 + 0 == 0) playedLength[playedBursts] = $2 - playedStart
	next
}

file == 7 && $1 == "player" { player = $3 " " $5; if ($6 == "stall_ms") stallBound = $7 + 0 }
file == 7 && $1 == "burst" {
	startLate[$2] = $6 + 0; frameLate[$2] = $8 + 0; playerBursts = $2 + 0
	# what it plays and how closely the kernel's times followed (play.c's replays)
	if ($11 == "plays") { plays[$2] = $12 + 0; attempt[$2] = $14 + 0; deviation[$2] = $16 + 0 }
	next
}

# libinput: kept for the end, when its clock is known (see libinputEvent)
file == 3 { liLines[++liCount] = $0; next }

(file == 4 || file == 5) && /"type":"gesture"/ {
	reader = file == 4 ? "shipped" : "evaluation"
	r = jnum("time_us") / 1000000
	id = jstr("gesture_id"); name = jstr("name"); state = jstr("state"); kind = jstr("kind")
	if (state == "began") { gdBurst[reader, id] = burstOf(r); gdFingers[reader, id] = jnum("fingers") }
	if (state == "recognized") {
		if (kind == "swipe") candidate(reader, burstOf(r), 3, "swipe " jnum("fingers") " " jstr("direction"))
		else if (kind == "tap") candidate(reader, burstOf(r), 2, "tap " jnum("fingers"))
		else candidate(reader, burstOf(r), 1, name)
	}
	if (state == "ended" && ((reader, id) in gdBurst)) {
		k = gdBurst[reader, id]
		if (kind == "pinch") candidate(reader, k, 3, "pinch " (jnum("scale") < 1 ? "in" : "out"))
		else if (kind == "pan") candidate(reader, k, 3, "scroll " direction(jnum("dx_mm"), jnum("dy_mm")))
		else if (kind == "long_press") candidate(reader, k, 1, "hold " gdFingers[reader, id])
		else candidate(reader, k, 1, name)
	}
}

END {
	# libinput prints times relative to the first event it prints, which comes
	# some tens of ms after the first kernel event (a hold begins 40 ms after
	# the touch). A tap's button press carries its touch-down time, which is a
	# burst's start in the kernel's times: the first one fixes the offset.
	offset = 0
	for (i = 1; i <= liCount; i++) {
		if (liLines[i] !~ /POINTER_BUTTON.*pressed/) continue
		t = liTime(liLines[i])
		if (t == "") continue
		r = kernelStart + t; nearest = burstStart[burstOf(r)]
		if (burstOf(r) < bursts && burstStart[burstOf(r) + 1] - r < r - nearest) nearest = burstStart[burstOf(r) + 1]
		if ((nearest - r) ^ 2 < 0.09) offset = nearest - r
		break
	}
	for (i = 1; i <= liCount; i++) libinputEvent(liLines[i])
	for (k in scrolled) scrollCandidate(k)
	# The kernel's burst that stands for each script line: the line's last
	# attempt when the player replayed stalled bursts (play.c), else the
	# line's own.
	for (k = 1; k <= lines; k++) final[k] = k
	attempts = lines
	if (playerBursts && (1 in plays)) {
		attempts = playerBursts
		for (b = 1; b <= playerBursts; b++) final[plays[b]] = b
	}
	if (bursts != attempts || ((1 in plays) && plays[playerBursts] != lines))
		print "bursts", device, bursts, "for", lines, "script lines" (attempts != lines ? " (" attempts " attempts played)" : "")
	replayedLines = 0; stalledLines = 0
	for (k = 1; k <= lines; k++) {
		b = final[k]
		print "expected", device, k, expected[k]
		print "libinput", device, k, best("li", b, "")
		if (attempt[b] > 1) replayedLines++
		if ((b in deviation) && deviation[b] > stallBound) {
			unmeasured[k] = 1; stalledLines++
			print "unmeasured", device, k, sprintf("stalled-%.0fms-after-%d-attempts", deviation[b], attempt[b])
		} else if (slow[b]) { unmeasured[k] = 1; print "unmeasured", device, k, "libinput-too-slow" }
		late[k] = playedBursts == lines ? sprintf(" (played +%.0f ms)", 1000 * (kernelLength[b] - playedLength[k])) : ""
		if (b in frameLate) {
			late[k] = late[k] sprintf(" (player: started +%.1f ms, latest frame +%.1f ms%s)", startLate[b], frameLate[b],
				(b in deviation) ? sprintf(", kernel %.1f ms off, attempt %d", deviation[b], attempt[b]) : "")
			print "late", device, k, startLate[b], frameLate[b]
		}
	}
	if (1 in plays) print "replayed", device, replayedLines, attempts - lines, stalledLines, stallBound
	if (playerBursts) {
		m = 0; over = 0
		for (k = 1; k <= lines; k++) { sorted[k] = frameLate[final[k]]; if (sorted[k] > m) m = sorted[k]; if (sorted[k] > 10) over++ }
		for (i = 2; i <= lines; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) { t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t }
		print "lateness", device, lines, sorted[int((lines + 1) / 2)], m, over, player
	}
	n = split(configs, names, " ")
	for (c = 1; c <= n; c++) {
		config = names[c]
		agree = 0; comparable = 0; liRight = 0; gdRight = 0; skipped = 0; skippedLabels = ""; disagreements = ""
		for (k = 1; k <= lines; k++) {
			gd = best(config, final[k], vocabulary[config])
			print "gestured", device, config, k, gd
			if (!inVocabulary(expected[k], vocabulary[config])) {
				skipped++
				if (index(skippedLabels, "," expected[k] ",") == 0) skippedLabels = skippedLabels "," expected[k] ","
				continue
			}
			if (k in unmeasured) continue
			comparable++
			li = best("li", final[k], vocabulary[config])
			if (li == expected[k]) liRight++
			if (gd == expected[k]) gdRight++
			if (li == gd) agree++
			else disagreements = disagreements "disagreement " device " " config " " k " | " scriptLine[k] late[k] " | libinput: " li " | gestured: " gd "\n"
		}
		printf "%s", disagreements
		print "scripted", device, config, "libinput", liRight, comparable
		print "scripted", device, config, "gestured", gdRight, comparable
		print "agreement", device, config, agree, comparable
		gsub(/,,/, ";", skippedLabels); gsub(/,/, "", skippedLabels)
		print "notcomparable", device, config, skipped, skippedLabels
	}
}

# the time (s) of a debug-events line, relative to libinput's first; "" when it has none
function liTime(line,    w, n, i, t) {
	n = split(line, w, /[ \t]+/)
	for (i = 1; i <= n; i++) if (w[i] ~ /^[+-][0-9.]+s$/) {
		t = substr(w[i], 1, length(w[i]) - 1) + 0
		# libinput subtracts its start from 32-bit milliseconds: an event stamped
		# just before the moment it took as its start comes out near 2^32 ms
		if (t > 2147483.648) t -= 4294967.296
		return t
	}
	return ""
}

# one line of libinput debug-events (its fields as $1..$NF)
function libinputEvent(line,    i, t, f, r, k, s, d, p, v, h, taps) {
	$0 = line
	if (/your system is too slow/) { slowPending = 1; if (lastBurst) slow[lastBurst] = 1; return }
	t = liTime($0)
	if (t == "") return
	for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+s$/) { f = i + 1; break }
	r = kernelStart + t + offset
	lastBurst = burstOf(r)
	if (slowPending) { slow[lastBurst] = 1; slowPending = 0 }
	if ($2 ~ /_BEGIN$/) {
		liBurst = burstOf(r); liFingers = $f; dx = 0; dy = 0; scale = 1
		# A scroll libinput turned into a pinch or swipe (its "we may confuse
		# a pinch for a scroll initially" in tp_gesture_handle_state_scroll)
		# comes before that gesture: its label is a candidate now, so the
		# gesture that followed wins (the later of equals).
		if (liBurst in scrolled) { scrollCandidate(liBurst); delete scrolled[liBurst] }
	}
	if ($2 == "GESTURE_SWIPE_UPDATE" || $2 == "GESTURE_PINCH_UPDATE") {
		s = $0; sub(/.*\(/, "", s); sub(/unaccelerated.*/, "", s); gsub(/ /, "", s)
		split(s, d, "/"); dx += d[1]; dy += d[2]
	}
	if ($2 == "GESTURE_PINCH_UPDATE") { s = $0; sub(/.*unaccelerated\) */, "", s); split(s, p, " "); scale = p[1] + 0 }
	if ($2 == "POINTER_SCROLL_FINGER" || ($2 == "POINTER_AXIS" && $0 ~ /\(finger\)/)) {
		k = burstOf(r)
		s = $0; sub(/.*vert */, "", s); split(s, v, "/"); scrollY[k] += v[1]
		s = $0; sub(/.*horiz */, "", s); split(s, h, "/"); scrollX[k] += h[1]
		scrolled[k] = 1
	}
	if ($0 ~ /cancelled/) return
	if ($2 == "GESTURE_SWIPE_END") candidate("li", liBurst, 3, "swipe " liFingers " " direction(dx, dy))
	if ($2 == "GESTURE_PINCH_END") candidate("li", liBurst, 3, "pinch " (scale < 1 ? "in" : "out"))
	if ($2 == "GESTURE_HOLD_END") candidate("li", liBurst, 1, "hold " liFingers)
	if ($2 == "POINTER_BUTTON" && $(f + 2) ~ /^pressed/) {
		taps = $f == "BTN_RIGHT" ? 2 : $f == "BTN_MIDDLE" ? 3 : $f == "BTN_LEFT" ? 1 : 0
		candidate("li", burstOf(r), 2, "tap " taps)
	}
}

function expectation(line,    w, n, i, kv, v) {
	n = split(line, w, " ")
	for (i = 2; i <= n; i++) { split(w[i], kv, "="); v[kv[1]] = kv[2] }
	if (w[1] == "swipe") return "swipe " v["fingers"] " " v["direction"]
	if (w[1] == "pinch") return "pinch " (v["scale"] + 0 < 1 ? "in" : "out")
	if (w[1] == "tap") return "tap " v["fingers"]
	if (w[1] == "long-press") return "hold " v["fingers"]
	if (w[1] == "drag" && v["fingers"] == 2) return "scroll " direction(v["to-x"] - v["x"], v["to-y"] - v["y"])
	return w[1]
}

# whether LABEL is one the vocabulary (comma-separated label prefixes) has
function inVocabulary(label, vocabulary,    n, i, entries) {
	if (vocabulary == "") return 1
	n = split(vocabulary, entries, ",")
	for (i = 1; i <= n; i++)
		if (label == entries[i] || index(label, entries[i] " ") == 1) return 1
	return 0
}

# the burst a kernel time (s) falls in: from halfway between the previous
# burst's last lift and its first touch to halfway to the next burst's
function burstOf(r,    k, previousEnd) {
	for (k = bursts; k > 1; k--) {
		previousEnd = (k - 1) in kernelLength ? burstStart[k - 1] + kernelLength[k - 1] : burstStart[k] - 0.1
		if (r >= (previousEnd + burstStart[k]) / 2) return k
	}
	return 1
}

# libinput's scroll in burst K so far, as a candidate label
function scrollCandidate(k) { candidate("li", k, 3, "scroll " direction(scrollX[k], scrollY[k])) }

function candidate(reader, k, priority, text) {
	candidates[reader, k] = candidates[reader, k] priority ":" text ";"
}

# the reader's label for burst K among VOCABULARY's (all when empty): the
# highest priority, the later of equals
function best(reader, k, vocabulary,    n, i, list, label, priority, top, chosen) {
	chosen = "none"; top = 0
	n = split(candidates[reader, k], list, ";")
	for (i = 1; i <= n; i++) {
		if (list[i] == "") continue
		priority = substr(list[i], 1, 1) + 0; label = substr(list[i], 3)
		if (!inVocabulary(label, vocabulary)) continue
		if (priority >= top) { top = priority; chosen = label }
	}
	return chosen
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
