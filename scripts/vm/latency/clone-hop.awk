# The clone's hop in one gestured callgrind profile (clone-instructions.sh):
# reads the profile (events: Ir only) and prints, per frame (-v frames=N):
#   instructions gestured per-frame TOTAL
#   instructions gestured read-handler per-frame R   (InputHub.readable(_:), inclusive)
#   instructions gestured hop per-frame H            (R less its calls after the clone's write:
#                                                     the handler's own instructions, its calls
#                                                     but those after the write, and of the
#                                                     relay's feed its own and its pass-through)
#   hop-part COST CALLER CALLEE                      (the hop's costliest calls, and each
#                                                     caller's own instructions as "self")
# Inclusive costs are summed from the profile's call records; a function's own
# instructions are those recorded under it, inlined code included.

# a compressed name, "(id) name" the first time and "(id)" after
function name(s,   id, rest) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2)
		rest = substr(s, RLENGTH + 1)
		sub(/^ /, "", rest)
		if (rest != "") names[id] = rest
		return names[id]
	}
	return s
}
/^totals:/ { total = $2; next }
/^fn=/ { fn = name(substr($0, 4)); next }
/^cfn=/ { cfn = name(substr($0, 5)); next }
/^calls=/ { incall = 1; next }
/^[a-z]+=/ { next }
/^[0-9+*-]/ {
	if (incall) {
		edge[fn SUBSEP cfn] += $2
		callees[fn] = callees[fn] SUBSEP cfn
		incall = 0
	} else self[fn] += $2
	next
}
END {
	# the read handler: InputHub.readable(_ session:), the timer's reads included
	for (f in self) if (f ~ /InputHubC8readable.*DeviceSessionCF$/) root = f
	if (root == "") { print "clone-hop: no InputHub.readable(_:) in the profile" > "/dev/stderr"; exit 1 }
	# what the handler calls after the clone's write: the engine's step, its sink's planning
	# and writing, the publishing, the bookkeeping
	after = "GesturePipelineV4feed|CloneRelayC4plan|InputHubC[0-9]+publish|rearmTimer|logDiagnostics|noteCloneRead|updateGrab|logClone|logLostEvents|replaceSubrange.*GestureEngine0[A-Z]6OutputO"
	prewrite = "CloneRelayC11passThrough|CloneFramePlannerV13observeSource|CloneFramePlannerV11passThrough|writeForwardedValues|CloneFramePlannerV03endD0|UInputCloneC5write|CloneRelayC5write"
	handler = self[root]
	hop = self[root]
	parts["self" SUBSEP root] = self[root]
	n = split(callees[root], list, SUBSEP)
	for (i = 2; i <= n; i++) {
		c = list[i]
		if (seen[root, c]++) continue
		cost = edge[root, c]
		handler += cost
		if (c ~ after) continue
		if (c ~ /CloneRelayC4feed/) {
			relay = c
			hop += self[c]
			parts["self" SUBSEP c] = self[c]
			m = split(callees[c], inner, SUBSEP)
			# of the relay's calls, only the pass-through (CloneRelay.passThrough: the
			# frame observed, planned and written) comes before the write; the rest is the
			# engine's step and what follows it. Builds before CloneRelay.passThrough
			# (43ad294 and older) called its pieces from feed itself: those are counted
			# instead (their runtime calls from feed, retains and array clearing, are not:
			# a lower bound for those builds).
			for (j = 2; j <= m; j++) {
				d = inner[j]
				if (seen[c, d]++ || d !~ prewrite) continue
				hop += edge[c, d]
				parts[c SUBSEP d] = edge[c, d]
			}
			continue
		}
		hop += cost
		parts[root SUBSEP c] = cost
	}
	printf "instructions gestured per-frame %d\n", total / frames
	printf "instructions gestured read-handler per-frame %d\n", handler / frames
	printf "instructions gestured hop per-frame %d\n", hop / frames
	fflush()
	for (k in parts) {
		split(k, p, SUBSEP)
		if (parts[k] / frames >= 10) printf "hop-part %d %s %s\n", parts[k] / frames, p[1], p[2] | "sort -k2,2nr"
	}
}
