# Seeded random touchpad gestures for the libinput comparison, one
# `gesturectl synthesize` line each (gesturectl(1)):
#   awk -v count=N -v seed=S [-v maxFingers=3] [-v desc=DESC] -f gestures.awk
#
# What is drawn (each line names all its values, so a line is its own
# reproducer):
#   kind       tap (1-3 fingers) 25 %, two-finger scroll 15 %, swipe (3 or 4
#              fingers, left/right/up/down) 30 %, pinch in or out 18 %,
#              three-finger hold 12 %
#   speed      taps 30-120 ms; scrolls 12-30 mm in 0.2-0.6 s; swipes 20-40 mm in
#              0.12-0.5 s (40-330 mm/s); pinches 0.3-0.7 s; holds 0.8-1.2 s
#   stagger    in 30 % of the multi-finger gestures all fingers land and lift in
#              the same frame; otherwise each finger lands a random 0-40 ms after
#              the previous one divided by the fingers after the first (so the
#              last lands at most 40 ms after the first), and lifts likewise
#   pressure   medium (0.5 of the range, held) 40 %, light (0.25) 20 %,
#              rising (0.05 -> 0.4 over 20-50 ms) 25 %, firm 15 % (`pressure=firm`:
#              a firm finger on the device's own scale, 111 units where the axis
#              reaches the default palm threshold 130, else 0.65 of the range;
#              gesturectl(1)); no palms are drawn (`pressure=palm` makes one)
#   place      as a hand lands: the synthesizer lays a gesture's fingers in a
#              row along x, 15 mm apart (closer on a narrow pad: the row takes at
#              most half the width; GestureSynthesizer.fingerSpacing), whatever
#              the direction they move in. The gesture is drawn around the
#              middle of the pad (+-10 %) and then moved, and a movement
#              shortened, just enough that every finger LANDS inside the pad's
#              usable middle and never leaves the pad (MARGIN mm inside its
#              edges). The usable middle is what neither reader sets apart:
#              above the bottom 15 % of the height (gestured's ThumbBand; a
#              clickpad's software-button area, libinput's tp_init_softbuttons,
#              is min(10 mm, 15 %) and lies inside it), below the top 10 mm on
#              a pad with top buttons (INPUT_PROP_TOPBUTTONPAD,
#              tp_init_top_softbuttons) or else the top 5 % on pads taller than
#              55 mm (both readers' top edge band), and min(8 mm, 8 %) from the
#              sides on pads 70 mm wide or more (both readers' palm edges),
#              each plus MARGIN. Fingers may move into those bands after
#              landing, as a hand's do (libinput judges a touch's area where it
#              lands: tp_button_area_handle_event ignores the bands later).
# The pad's size is read from DESC as the synthesizer reads it (the
# ABS_MT_POSITION axes over their resolution; a pad without one is 69 x 50
# mm, libinput's fallback); without DESC, 69 x 50 mm without buttons. With
# maxFingers=3 (a device without BTN_TOOL_QUADTAP) a four-finger swipe drawn
# is made with three fingers.
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }
# The pad: W x H mm, its usable middle for landings [XL, XR] x [YT, YB].
function readPad(path,    line, w, xmin, xmax, xres, ymin, ymax, yres, prop, found) {
	W = 69; H = 50; prop = 0
	if (path != "") {
		while ((getline line < path) > 0) {
			split(line, w, " ")
			if (w[1] == "A:" && w[2] == "35") { xmin = w[3]; xmax = w[4]; xres = w[7] + 0; found++ }
			if (w[1] == "A:" && w[2] == "36") { ymin = w[3]; ymax = w[4]; yres = w[7] + 0; found++ }
			if (w[1] == "P:") prop = hex(w[2])
		}
		close(path)
		if (found < 2) { print "gestures.awk: no ABS_MT_POSITION axes in " path > "/dev/stderr"; exit 66 }
		W = xres > 0 ? (xmax - xmin) / xres : 69
		H = yres > 0 ? (ymax - ymin) / yres : 50
	}
	topButtons = int(prop / 16) % 2
	side = W >= 70 ? min(8, 0.08 * W) : 0
	top = topButtons ? 10 : (H > 55 ? 0.05 * H : 0)
	XL = side + MARGIN; XR = W - side - MARGIN
	YT = top + MARGIN; YB = 0.85 * H - MARGIN
}
function hex(text,    i, c, v) {
	v = 0
	for (i = 1; i <= length(text); i++) { c = index("0123456789abcdef", tolower(substr(text, i, 1))); v = v * 16 + c - 1 }
	return v
}
function spacing(n) { return n > 1 ? min(15, 0.5 * W / (n - 1)) : 0 }
function clamp(v, lo, hi) { return v < lo ? lo : (v > hi ? hi : v) }
# A row of n fingers at the centroid (CX, CY) in mm moving by D mm in direction
# d (none for a still hand), wanted around (cx, cy): sets CX, CY and D so that
# the row lands in the usable middle and its end stays MARGIN inside the pad.
function placeMove(n, d, distance, cx, cy,    half, lo, hi) {
	half = (n - 1) * spacing(n) / 2
	D = distance
	if (d == "left" || d == "right") {
		hi = XR - half; lo = XL + half
		if (d == "left") { if (hi - MARGIN - half < D) D = max(0, hi - MARGIN - half); lo = max(lo, MARGIN + D + half) }
		else { if (W - MARGIN - half - lo < D) D = max(0, W - MARGIN - half - lo); hi = min(hi, W - MARGIN - D - half) }
		CX = clamp(cx, lo, hi); CY = clamp(cy, YT, YB)
	} else if (d == "up" || d == "down") {
		hi = YB; lo = YT
		if (d == "up") { if (YB - MARGIN < D) D = max(0, YB - MARGIN); lo = max(lo, MARGIN + D) }
		else { if (H - MARGIN - YT < D) D = max(0, H - MARGIN - YT); hi = min(hi, H - MARGIN - D) }
		CY = clamp(cy, lo, hi); CX = clamp(cx, XL + half, XR - half)
	} else {
		CX = clamp(cx, XL + half, XR - half); CY = clamp(cy, YT, YB)
	}
}
# Unit vector of direction d.
function ux(d) { return d == "left" ? -1 : (d == "right" ? 1 : 0) }
function uy(d) { return d == "up" ? -1 : (d == "down" ? 1 : 0) }
BEGIN {
	MARGIN = 3
	readPad(desc)
	srand(seed)
	split("left right up down", dirs, " ")
	for (k = 1; k <= count; k++) {
		r = rand()
		x = 0.4 + rand() * 0.2; y = 0.4 + rand() * 0.2
		if (r < 0.25) {
			n = 1 + int(rand() * 3)
			placeMove(n, "", 0, x * W, y * H)
			line = sprintf("tap fingers=%d x=%.3f y=%.3f duration=%.3f", n, CX / W, CY / H, 0.03 + rand() * 0.09)
		} else if (r < 0.40) {
			n = 2; d = dirs[int(rand() * 4) + 1]; len = 12 + rand() * 18
			# centred on the drawn point, then placed
			placeMove(2, d, len, x * W - ux(d) * len / 2, y * H - uy(d) * len / 2)
			line = sprintf("drag fingers=2 x=%.3f y=%.3f to-x=%.3f to-y=%.3f duration=%.2f",
				CX / W, CY / H, (CX + ux(d) * D) / W, (CY + uy(d) * D) / H, 0.2 + rand() * 0.4)
		} else if (r < 0.70) {
			n = rand() < 0.5 ? 3 : 4
			if (maxFingers == 3) n = 3
			d = dirs[int(rand() * 4) + 1]; len = 20 + rand() * 20
			placeMove(n, d, len, x * W - ux(d) * len / 2, y * H - uy(d) * len / 2)
			line = sprintf("swipe fingers=%d direction=%s distance=%.0f duration=%.2f x=%.3f y=%.3f",
				n, d, D < len ? int(D) : D, 0.12 + rand() * 0.38, CX / W, CY / H)
		} else if (r < 0.88) {
			n = 2
			if (rand() < 0.5) { scale = 0.4 + rand() * 0.2; span = 35 + rand() * 10 }
			else { scale = 1.6 + rand() * 0.4; span = 20 + rand() * 8 }
			# fingers on a line along x at +-span/2, ending at +-span*scale/2
			cap = min(XR - XL, (W - 2 * MARGIN) / scale); if (span > cap) span = int(cap)
			lo = max(XL + span / 2, MARGIN + span * scale / 2); hi = min(XR - span / 2, W - MARGIN - span * scale / 2)
			CX = clamp(x * W, lo, hi); CY = clamp(y * H, YT, YB)
			line = sprintf("pinch fingers=2 scale=%.2f span=%.0f duration=%.2f x=%.3f y=%.3f",
				scale, span, 0.3 + rand() * 0.4, CX / W, CY / H)
		} else {
			n = 3
			placeMove(3, "", 0, x * W, y * H)
			line = sprintf("long-press fingers=3 duration=%.2f x=%.3f y=%.3f", 0.8 + rand() * 0.4, CX / W, CY / H)
		}
		if (n > 1 && rand() >= 0.3)
			line = line sprintf(" stagger=%.3f lift-stagger=%.3f", rand() * 0.04 / (n - 1), rand() * 0.04 / (n - 1))
		p = rand()
		if (p < 0.4) line = line " pressure=0.5"
		else if (p < 0.6) line = line " pressure=0.25"
		else if (p < 0.85) line = line sprintf(" pressure=0.4 pressure-from=0.05 pressure-rise=%.3f", 0.02 + rand() * 0.03)
		else line = line " pressure=firm"
		print line
	}
}
