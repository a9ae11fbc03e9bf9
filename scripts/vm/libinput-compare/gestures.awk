# Seeded random touchpad gestures for the libinput comparison, one
# `gesturectl synthesize` line each (gesturectl(1)):
#   awk -v count=N -v seed=S [-v maxFingers=3] -f gestures.awk
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
#   place      the middle of the pad, +-10 % (edges are not exercised)
# Sizes suit the smallest pad compared (69 x 50 mm). With maxFingers=3 (a
# device without BTN_TOOL_QUADTAP) a four-finger swipe drawn is made with
# three fingers.
BEGIN {
	srand(seed)
	split("left right up down", dirs, " ")
	for (k = 1; k <= count; k++) {
		r = rand()
		x = 0.4 + rand() * 0.2; y = 0.4 + rand() * 0.2
		if (r < 0.25) {
			n = 1 + int(rand() * 3)
			line = sprintf("tap fingers=%d x=%.2f y=%.2f duration=%.3f", n, x, y, 0.03 + rand() * 0.09)
		} else if (r < 0.40) {
			n = 2; d = dirs[int(rand() * 4) + 1]; len = (12 + rand() * 18) / 50
			tx = x; ty = y
			if (d == "left") tx = x - len * 50 / 69; else if (d == "right") tx = x + len * 50 / 69
			else if (d == "up") ty = y - len; else ty = y + len
			# start half the way back, so the scroll is centred on the pad
			sx = x - (tx - x) / 2; sy = y - (ty - y) / 2; tx -= (tx - x) / 2; ty -= (ty - y) / 2
			line = sprintf("drag fingers=2 x=%.3f y=%.3f to-x=%.3f to-y=%.3f duration=%.2f", sx, sy, tx, ty, 0.2 + rand() * 0.4)
		} else if (r < 0.70) {
			n = rand() < 0.5 ? 3 : 4
			if (maxFingers == 3) n = 3
			line = sprintf("swipe fingers=%d direction=%s distance=%.0f duration=%.2f",
				n, dirs[int(rand() * 4) + 1], 20 + rand() * 20, 0.12 + rand() * 0.38)
		} else if (r < 0.88) {
			n = 2
			if (rand() < 0.5)
				line = sprintf("pinch fingers=2 scale=%.2f span=%.0f duration=%.2f x=%.2f y=%.2f",
					0.4 + rand() * 0.2, 35 + rand() * 10, 0.3 + rand() * 0.4, x, y)
			else
				line = sprintf("pinch fingers=2 scale=%.2f span=%.0f duration=%.2f x=%.2f y=%.2f",
					1.6 + rand() * 0.4, 20 + rand() * 8, 0.3 + rand() * 0.4, x, y)
		} else {
			n = 3
			line = sprintf("long-press fingers=3 duration=%.2f x=%.2f y=%.2f", 0.8 + rand() * 0.4, x, y)
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
