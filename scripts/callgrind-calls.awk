# Calls and distinct call sites a frame, from callgrind profiles made with --dump-instr=yes
# (scripts/bench-instructions.sh --guest-cycle, scripts/vm/latency/instructions-guest.sh).
#
#   awk -v frames=N [-v base=FILE] -f scripts/callgrind-calls.awk [FILE...]
#
# Each call instruction's calls (the "calls=" line before the instruction's position) are
# summed over the files, less those in base (a shorter run of the same program: its one-time
# calls cancel out; valgrind loads a program at the same addresses every run). Prints
# "calls C sites S": the calls a frame, and the call sites a frame runs, each site counted at
# most once a frame (its calls / frames, capped at 1). The guest's emulator charges a call
# site once a wake-up, about a thousand hot instructions' worth (DESIGN.md "Performance principles"), so S is the figure that follows its CPU time. mawk has no strtonum: hex() reads
# the absolute positions.
function hex(s,   i, v) {
	v = 0
	for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
FNR == 1 { pos = 0; pending = ""; sign = FILENAME == base ? -1 : 1 }
/^calls=/ { split(substr($0, 7), c, " "); pending = c[1]; next }
/^(0x[0-9a-f]+|[+-][0-9]+|\*)( |$)/ {
	t = $1
	if (t ~ /^0x/) pos = hex(t)
	else if (t ~ /^[+-]/) pos += t
	if (pending != "") { n[pos] += sign * pending; pending = "" }
}
END {
	for (p in n) {
		if (n[p] <= 0) continue
		calls += n[p]
		sites += n[p] / frames < 1 ? n[p] / frames : 1
	}
	printf "calls %.0f sites %.0f\n", calls / frames, sites
}
