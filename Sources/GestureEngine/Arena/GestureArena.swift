// The arena: touch assignment, delivery, state requests, exclusion, failure requirements and
// the settle loop (spec §5), as steps of the engine.

extension GestureEngine {
    // MARK: - Relations (spec §5.1)

    /// Sorts the slots into engine order and derives requires / simultaneous / may-prevent,
    /// dropping unknown names and require-to-fail cycles with a configuration diagnostic.
    mutating func buildRelations() {
        slots.sort { a, b in
            if a.configuration.priority != b.configuration.priority {
                return a.configuration.priority > b.configuration.priority
            }
            if a.area != b.area { return a.area < b.area }
            return a.declarationIndex < b.declarationIndex
        }
        let n = slots.count
        var indexByName: [String: Int] = [:]
        for i in slots.indices {
            if indexByName[slots[i].name] != nil {
                note(.configuration("two recognizers are named '\(slots[i].name)'; relations use the first"))
            } else {
                indexByName[slots[i].name] = i
            }
        }
        requires = Array(repeating: [], count: n)
        requiredBy = Array(repeating: [], count: n)
        for i in slots.indices {
            for name in slots[i].configuration.requiresFailureOf {
                guard let j = indexByName[name] else {
                    note(
                        .configuration(
                            "'\(slots[i].name)' requires the failure of unknown recognizer '\(name)', ignoring"
                        )
                    )
                    continue
                }
                if j == i {
                    note(.configuration("'\(slots[i].name)' requires its own failure, ignoring"))
                    continue
                }
                if requires[i].contains(j) { continue }
                if reaches(from: j, to: i) {
                    note(
                        .configuration(
                            "require-to-fail cycle: dropped '\(slots[i].name)' requires '\(slots[j].name)'"
                        )
                    )
                    continue
                }
                requires[i].append(j)
                requiredBy[j].append(i)
            }
        }
        // Requirements the recognizers themselves ask for (spec §5.1, the subclass overrides).
        for i in slots.indices {
            for j in slots.indices where i != j && !requires[i].contains(j) {
                let asked =
                    slots[i].recognizer.shouldRequireFailure(of: slots[j].configuration.kind)
                    || slots[j].recognizer.shouldBeRequiredToFail(by: slots[i].configuration.kind)
                guard asked else { continue }
                if reaches(from: j, to: i) {
                    note(
                        .configuration(
                            "require-to-fail cycle: dropped '\(slots[i].name)' requires '\(slots[j].name)'"
                        )
                    )
                    continue
                }
                requires[i].append(j)
                requiredBy[j].append(i)
            }
        }
        var simultaneous = Array(repeating: false, count: n * n)
        for i in slots.indices {
            for name in slots[i].configuration.recognizesSimultaneouslyWith {
                guard let j = indexByName[name] else {
                    note(
                        .configuration(
                            "'\(slots[i].name)' recognizes simultaneously with unknown recognizer '\(name)', ignoring"
                        )
                    )
                    continue
                }
                simultaneous[i * n + j] = true
                simultaneous[j * n + i] = true
            }
        }
        mayPrevent = Array(repeating: false, count: n * n)
        for a in slots.indices {
            for b in slots.indices where a != b && !simultaneous[a * n + b] {
                mayPrevent[a * n + b] =
                    slots[a].recognizer.canPrevent(slots[b].configuration.kind)
                    && slots[b].recognizer.canBePrevented(by: slots[a].configuration.kind)
            }
        }
    }

    /// True when `from` waits, directly or transitively, for `to`.
    func reaches(from: Int, to: Int) -> Bool {
        var stack = [from]
        var seen = Array(repeating: false, count: slots.count)
        while let x = stack.popLast() {
            if x == to { return true }
            if seen[x] { continue }
            seen[x] = true
            stack.append(contentsOf: requires[x])
        }
        return false
    }

    /// share(a, b): the two held a common touch since their last resets.
    func share(_ a: Int, _ b: Int) -> Bool {
        for t in slots[a].history where slots[b].hasHistory(t) { return true }
        return false
    }

    /// prevents(a, b) of spec §5.1.
    func prevents(_ a: Int, _ b: Int) -> Bool {
        a != b && mayPrevent[a * slots.count + b] && share(a, b)
    }

    // MARK: - Step framing

    mutating func beginStep(at time: Timestamp) {
        now = max(time, now)
        sequenceMayHaveEnded = false
        actions.clear()
        sinkOutput.clear()
        for i in slots.indices { slots[i].changedActionIndex = nil }
    }

    /// Steps 4–7 of spec §5.5: settle, sink, emit, reset.
    mutating func finishStep(into out: inout [EngineOutput]) {
        settle()
        deliverToSink()
        out.reserveCapacity(out.count + sinkOutput.count + actions.count)
        for event in sinkOutput { out.append(.touch(event)) }
        for event in actions { out.append(.gesture(event)) }
        rearmRestartsFailedOnLanding()
        resetFinishedRecognizers()
        dropFinishedTouches()
    }

    // MARK: - Input (spec §2.3, §2.4)

    func activeIndex(_ id: TouchID) -> Int? {
        for i in active.indices where active[i].id == id { return i }
        return nil
    }

    /// ``activeIndex(_:)``, trying `hint` first: frames list touches in id order, which is
    /// usually the order of `active`, so the next touch is usually at the next index.
    func activeIndex(_ id: TouchID, hint: Int) -> Int? {
        if hint < active.count, active[hint].id == id { return hint }
        return activeIndex(id)
    }

    mutating func queueSink(_ touch: Touch, phase: TouchPhase) {
        guard deliversTouches else { return }
        let event = SinkTouchEvent(touch: touch.id, phase: phase, timestamp: now, position: touch.position, slot: touch.slot)
        if let r = sink.firstIndex(where: { $0.id == touch.id }) {
            sink[r].position = touch.position
            sink[r].slot = touch.slot
            sink[r].incoming.append(event)
            if phase == .ended || phase == .cancelled { sink[r].deviceDone = true }
        } else {
            var record = SinkRecord(id: touch.id, position: touch.position)
            if let spare = spareSinkEvents.popLast() { record.incoming = spare }
            record.slot = touch.slot
            record.incoming.append(event)
            record.deviceDone = phase == .ended || phase == .cancelled
            sink.append(record)
        }
    }

    /// Splits the frame into began/moved/ended/cancelled lists, keeps the active-touch table and
    /// applies the touch cap. Inconsistent input (a move of an unknown touch) is repaired and
    /// reported as a kernel bug.
    mutating func ingest(_ frame: Frame) {
        frameBegan.clear()
        frameMoved.clear()
        frameEnded.clear()
        frameCancelled.clear()
        let wasIdle = active.isEmpty
        defer { if wasIdle, !frameBegan.isEmpty { sequenceStart = now } }
        var touches = frame.touches
        var isSorted = true
        for k in touches.indices.dropFirst() where touches[k - 1].id > touches[k].id { isSorted = false }
        if !isSorted { touches.sort { $0.id < $1.id } }
        var hint = 0
        for touch in touches {
            if !suppressed.isEmpty, let s = suppressed.firstIndex(of: touch.id) {
                if touch.phase == .ended || touch.phase == .cancelled { suppressed.remove(at: s) }
                continue
            }
            let known = activeIndex(touch.id, hint: hint)
            if let known { hint = known + 1 }
            let isEnding = touch.phase == .ended || touch.phase == .cancelled
            guard let index = known else {
                if touch.phase == .moved || touch.phase == .stationary {
                    note(.kernelBug("touch \(touch.id) \(touch.phase.rawValue) before it began; treated as began"))
                }
                guard active.count < configuration.maxTouches else {
                    if !isEnding { suppressed.append(touch.id) }
                    continue
                }
                var began = touch
                began.phase = .began
                began.previousPosition = touch.position
                frameBegan.append(began)
                queueSink(began, phase: .began)
                if isEnding {
                    if touch.phase == .ended { frameEnded.append(touch) } else { frameCancelled.append(touch) }
                    queueSink(touch, phase: touch.phase)
                } else {
                    active.append(began)
                }
                continue
            }
            let previous = active[index].position
            switch touch.phase {
            case .began:
                note(.kernelBug("touch \(touch.id) began twice; treated as moved"))
                if touch.position != previous { appendMove(touch, from: previous, at: index) }
            case .moved:
                if touch.position != previous { appendMove(touch, from: previous, at: index) }
            case .stationary:
                break
            case .ended:
                if touch.position != previous { appendMove(touch, from: previous, at: index) }
                frameEnded.append(touch)
                queueSink(touch, phase: .ended)
                active.remove(at: index)
                sequenceMayHaveEnded = true
            case .cancelled:
                frameCancelled.append(touch)
                queueSink(touch, phase: .cancelled)
                active.remove(at: index)
                sequenceMayHaveEnded = true
            }
        }
    }

    private mutating func appendMove(_ touch: Touch, from previous: PhysicalPoint, at index: Int) {
        active[index].position = touch.position
        active[index].previousPosition = previous
        // Appended as it came and changed in the list: one copy of the touch, not two (the
        // steady frame's commonest step, a few per frame).
        frameMoved.append(touch)
        let last = frameMoved.count - 1
        frameMoved[last].phase = .moved
        frameMoved[last].previousPosition = previous
        if deliversTouches { queueSink(frameMoved[last], phase: .moved) }
    }

    /// `failsOnButtonPress` policy: a physical click fails recognizers still deciding.
    mutating func handleButton(_ pressed: Bool) {
        isButtonPressed = pressed
        guard pressed else { return }
        for i in slots.indices
        where slots[i].configuration.policy.failsOnButtonPress && slots[i].state == .possible
            && slots[i].isInPlay
        {
            fail(i, input: "button pressed")
        }
    }

    /// Step A of spec §5.2.
    mutating func assignBeganTouches() {
        for touch in frameBegan {
            for i in slots.indices {
                let state = slots[i].state
                guard slots[i].configuration.isEnabled, !state.isFinal, canOffer(touch, to: i) else { continue }
                if slots[i].settling, slots[i].pending != .none, slots[i].isDiscrete {
                    // Recognized on fewer fingers than the landing brought: the landing decides.
                    fail(i, input: "another finger landed while the landing settled")
                    continue
                }
                // Closed: a discrete recognizer whose `recognized` waits on failure requirements
                // is complete. Read field by field: a computed property on the slot took a
                // copy of the whole slot (a dozen references) per slot and landing.
                guard !(slots[i].isDiscrete && slots[i].pending == .recognized && !slots[i].settling) else { continue }
                slots[i].held.append(touch.id)
                slots[i].history.append(touch.id)
                // A gesture already in progress owns touches it receives later as well.
                if state.isActive, slots[i].configuration.cancelsTouchesInView {
                    markOwned(touch.id, by: i)
                }
            }
        }
    }

    // MARK: - Delivery (spec §5.5 step 3)

    mutating func deliverFrame() {
        for i in slots.indices {
            // Most slots hold nothing: skip them before passing a list (a retain) around.
            if slots[i].held.isEmpty { continue }
            // A finished recognizer keeps its touches until the sequence ends (it stays out,
            // spec deviation "stays failed") but takes no calls: skip it before `deliver`.
            if slots[i].state.isFinal || (slots[i].isDiscrete && slots[i].pending == .recognized) { continue }
            if !frameBegan.isEmpty {
                if slots[i].movesDeferred { catchUpDeferredMoves(of: i) }
                deliver(.began, from: frameBegan, to: i)
            }
            if !frameMoved.isEmpty {
                if slots[i].held.count < slots[i].movesDecideFrom {
                    // Fewer touches than its moves need: only positions, delivered later.
                    slots[i].movesDeferred = true
                } else {
                    deliver(.moved, from: frameMoved, to: i)
                }
            }
            if !frameEnded.isEmpty { deliver(.ended, from: frameEnded, to: i) }
            if !frameCancelled.isEmpty { deliver(.cancelled, from: frameCancelled, to: i) }
        }
        // Lifted touches are held no longer, whether or not they were delivered.
        guard !frameEnded.isEmpty || !frameCancelled.isEmpty else { return }
        for i in slots.indices {
            for touch in frameEnded { slots[i].release(touch.id) }
            for touch in frameCancelled { slots[i].release(touch.id) }
        }
    }

    /// Hands slot `i` the positions its touches had before this frame (the moves it was not
    /// given while it held too few touches, ``Slot/movesDecideFrom``), as one `touchesMoved`:
    /// what it would know had it seen every move, before the touch landing now joins them.
    private mutating func catchUpDeferredMoves(of i: Int) {
        slots[i].movesDeferred = false
        var buffer = subset
        subset = []
        buffer.removeAll(keepingCapacity: true)
        for touch in active where slots[i].holds(touch.id) && !frameBegan.contains(where: { $0.id == touch.id }) {
            var known = touch
            // Moved in this frame: the move itself is delivered after the landing, as always.
            if let moved = frameMoved.first(where: { $0.id == touch.id }) { known.position = moved.previousPosition }
            known.phase = .moved
            buffer.append(known)
        }
        if !buffer.isEmpty { invoke(i, .moved, buffer) }
        buffer.removeAll(keepingCapacity: true)
        subset = buffer
    }

    private mutating func deliver(_ phase: TouchPhase, from list: [Touch], to i: Int) {
        guard !list.isEmpty, !slots[i].state.isFinal, !(slots[i].isDiscrete && slots[i].pending == .recognized)
        else { return }
        let held = slots[i].held
        guard !held.isEmpty else { return }
        // Usually a slot holds every touch of the list: then the list itself is handed over,
        // without filtering or copying touches.
        let heldCount = Self.countHeld(list, held)
        if heldCount == 0 { return }
        if heldCount == list.count {
            invoke(i, phase, list)
            return
        }
        var buffer = subset
        subset = []
        buffer.removeAll(keepingCapacity: true)
        for touch in list where held.contains(touch.id) { buffer.append(touch) }
        invoke(i, phase, buffer)
        buffer.removeAll(keepingCapacity: true)
        subset = buffer
    }

    /// How many touches of `list` (in id order, as `ingest` leaves the lists) are in `held`.
    /// Touch ids grow with time, so `held` (in arrival order) is usually in id order too, and
    /// one merge pass counts; otherwise every touch is looked up.
    private static func countHeld(_ list: [Touch], _ held: [TouchID]) -> Int {
        var sorted = true
        for k in held.indices.dropFirst() where held[k] < held[k - 1] {
            sorted = false
            break
        }
        var count = 0
        if sorted {
            var j = 0
            for touch in list {
                while j < held.count, held[j] < touch.id { j += 1 }
                if j == held.count { break }
                if held[j] == touch.id { count += 1 }
            }
        } else {
            for touch in list where held.contains(touch.id) { count += 1 }
        }
        return count
    }

    private mutating func invoke(_ i: Int, _ phase: TouchPhase, _ touches: [Touch]) {
        switch phase {
        case .began: invoke(i, .began(touches), input: "touches began")
        case .moved, .stationary: invoke(i, .moved(touches), input: "touches moved")
        case .ended: invoke(i, .ended(touches), input: "touches ended")
        case .cancelled: invoke(i, .cancelled(touches), input: "touches cancelled")
        }
    }

    /// Calls one hook of slot `i` and applies what it asked for: ignores, timers, then state
    /// requests in order.
    mutating func invoke(_ i: Int, _ call: AnyRecognizer.Call, input: String) {
        // `slots` and `context` are distinct stored properties, so the recognizer gets the
        // engine's context in place: no copy, and its arrays stay uniquely referenced.
        context.clear(now: now, state: slots[i].logical)
        slots[i].recognizer.handle(call, context: &context)
        if !context.ignoredTouches.isEmpty {
            for id in context.ignoredTouches { slots[i].forget(id) }
            if slots[i].settling, slots[i].pending != .none {
                // It cannot take the finger that joined the landing: the landing decides.
                fail(i, input: "another finger landed while the landing settled")
            }
        }
        for op in context.timerOperations {
            switch op {
            case .schedule(let token, let deadline):
                slots[i].timers.removeAll { $0.token == token }
                timerSerial += 1
                slots[i].timers.append(Slot.Timer(token: token, deadline: deadline, serial: timerSerial))
            case .cancel(let token):
                slots[i].timers.removeAll { $0.token == token }
            }
        }
        // Nothing that `resolve` reaches calls a recognizer, so the context is not reused
        // while its requests are read.
        for request in context.requests {
            // The recognizer sees its own request at once; the arena may still overrule it.
            if !slots[i].state.isFinal { slots[i].logical = request }
            resolve(i, request, input: input)
        }
    }

    // MARK: - Timers (spec §6.2)

    mutating func fireTimers(at deadline: Timestamp) {
        // Only timers armed before this step fire in it; one re-armed for the same instant from
        // a callback waits for the next step (which `advance` bounds).
        let armedBefore = timerSerial
        for i in slots.indices {
            while true {
                var due: Int?
                for k in slots[i].timers.indices
                where slots[i].timers[k].deadline == deadline && slots[i].timers[k].serial <= armedBefore {
                    if due.map({ slots[i].timers[k].serial < slots[i].timers[$0].serial }) ?? true { due = k }
                }
                guard let k = due else { break }
                let timer = slots[i].timers.remove(at: k)
                guard !slots[i].state.isFinal else { continue }
                invoke(i, .timer(timer.token), input: "timer")
            }
        }
    }

    // MARK: - State requests (spec §5.3)

    mutating func resolve(_ i: Int, _ requested: RecognizerState, input: String) {
        // Copies of single fields: copying `slots[i]` whole costs a dozen retains per request.
        let state = slots[i].state
        let pending = slots[i].pending
        if state.isFinal { return }
        if pending != .none {
            switch requested {
            case .changed:
                return
            case .ended:
                if pending == .began { slots[i].pending = .beganThenEnded }
                return
            case .cancelled, .failed:
                fail(i, input: input)
                return
            case .possible, .began:
                note(.engineBug("'\(slots[i].name)' requested \(requested.rawValue) while pending"))
                return
            }
        }
        guard RecognizerTransitions.isLegalRequest(from: state, to: requested, isDiscrete: slots[i].isDiscrete)
        else {
            note(
                .engineBug(
                    "'\(slots[i].name)' requested the illegal transition \(state.rawValue) → \(requested.rawValue), ignoring"
                )
            )
            slots[i].logical = state
            return
        }
        switch requested {
        case .began:
            tryBegin(i, requested, input: input)
        case .ended where state == .possible:
            tryBegin(i, requested, input: input)
        case .failed:
            fail(i, input: input)
        case .changed:
            slots[i].state = .changed
            recordAction(i, .changed)
        case .ended, .cancelled:
            noteTransition(i, from: state, to: requested, input: input)
            slots[i].state = requested
            recordAction(i, slots[i].gestureState(for: requested))
        case .possible:
            break
        }
    }

    /// possible → began | recognized: shouldBegin, blocked, failure requirements, commit.
    mutating func tryBegin(_ i: Int, _ requested: RecognizerState, input: String) {
        if let reason = shouldNotBegin(i) {
            fail(i, input: reason)
            return
        }
        if let blocker = blocker(of: i) {
            fail(i, input: recordsTransitions ? "prevented by '\(slots[blocker].name)'" : "")
            return
        }
        var waits = false
        for s in requires[i] where slots[s].isInPlay {
            switch slots[s].state {
            case .began, .changed, .ended, .cancelled:
                fail(i, input: recordsTransitions ? "'\(slots[s].name)' recognized" : "")
                return
            case .possible:
                waits = true
            case .failed:
                break
            }
        }
        // A discrete recognizer waits for the landing to settle (its one event cannot be taken
        // back); a continuous one waits only in the landing's first moments
        // (`continuousSettling`), then begins at once and yields if another finger lands.
        let settles = mustSettle(i)
        if waits || settles {
            slots[i].pending = requested == .began ? .began : .recognized
            slots[i].settling = settles
            slots[i].yieldFingers = slots[i].held.count
            pendingSerial += 1
            slots[i].pendingSerial = pendingSerial
            if recordsTransitions {
                note(
                    .transition(
                        recognizer: slots[i].name,
                        from: .possible,
                        input: "\(input); waiting for \(waits ? "failure requirements" : "the landing to settle")",
                        to: .possible
                    )
                )
            }
            return
        }
        commitBegin(i, requested, input: input)
    }

    // MARK: - Settling window (DESIGN.md "Engine and arbitration" › "Arbitration on real landings")

    /// True while fingers landing now still belong to the sequence's first landing.
    var isLandingOpen: Bool {
        guard configuration.settlingWindow > 0, let start = sequenceStart else { return false }
        return now < start.adding(seconds: configuration.settlingWindow)
    }

    /// True while a continuous recognizer about to begin with fewer fingers than a competitor
    /// needs still waits for the landing (``EngineConfiguration/continuousSettling``).
    var isContinuousSettlingOpen: Bool {
        guard let start = sequenceStart else { return false }
        let seconds = min(configuration.continuousSettling, configuration.settlingWindow)
        return seconds > 0 && now < start.adding(seconds: seconds)
    }

    /// True when slot `i`, about to begin or be recognized now, waits for the landing instead:
    /// a finger still landing may be meant for a competitor needing more fingers.
    func mustSettle(_ i: Int) -> Bool {
        guard slots[i].isDiscrete ? isLandingOpen : isContinuousSettlingOpen else { return false }
        return waitsForMoreFingers(i)
    }

    /// When the landing settles for the recognizers waiting for it.
    var landingDeadline: Timestamp? {
        guard isLandingOpen, let start = sequenceStart else { return nil }
        var earliest: Timestamp?
        for i in slots.indices where slots[i].settling && slots[i].pending != .none {
            let seconds =
                slots[i].isDiscrete
                ? configuration.settlingWindow : min(configuration.continuousSettling, configuration.settlingWindow)
            let end = start.adding(seconds: seconds)
            if end > now, earliest.map({ end < $0 }) ?? true { earliest = end }
        }
        return earliest
    }

    /// True when slot `i`, beginning now, would exclude a possible competitor on its touches
    /// that needs more fingers than `i` holds: a finger still landing may be meant for it.
    func waitsForMoreFingers(_ i: Int) -> Bool {
        let fingers = slots[i].held.count
        for b in slots.indices
        where b != i && slots[b].state == .possible && slots[b].isInPlay && slots[b].minimumFingers > fingers
            && prevents(i, b) && mayBeginOnThisDevice(b)
        {
            return true
        }
        return false
    }

    /// False when slot `i`'s device-kind policy rules this device out: it can never begin
    /// here, so it is no competitor a landing could be meant for.
    func mayBeginOnThisDevice(_ i: Int) -> Bool {
        let kinds = slots[i].configuration.policy.deviceKinds
        return kinds.isEmpty || (device.kind.map { kinds.contains($0) } ?? false)
    }

    /// A continuous gesture that began while the landing was open is cancelled when fingers
    /// landing in the window bring the count a competitor it spared needs: the landing decides
    /// the finger count, as if the gesture had waited for it.
    ///
    /// A continuous one still waiting for the landing (``mustSettle(_:)``) fails instead, having
    /// emitted nothing.
    mutating func yieldToLanding() {
        guard !frameBegan.isEmpty, isLandingOpen else { return }
        for r in slots.indices {
            let yields = slots[r].yields && slots[r].state.isActive
            let waiting =
                !slots[r].isDiscrete && slots[r].settling && slots[r].pending != .none && slots[r].state == .possible
            guard yields || waiting else { continue }
            var down = 0
            for touch in active where canOffer(touch, to: r) { down += 1 }
            for b in slots.indices
            where b != r && slots[b].state == .possible && slots[b].isInPlay
                && slots[b].minimumFingers > slots[r].yieldFingers && slots[b].minimumFingers <= down && prevents(r, b)
                && mayBeginOnThisDevice(b)
            {
                if yields {
                    cancel(r, input: "another finger landed while the landing settled")
                } else {
                    fail(r, input: "another finger landed while the landing settled")
                }
                break
            }
        }
    }

    /// True when `touch` could be offered to slot `i` (spec §5.2): its tool type and its start
    /// point are the slot's.
    func canOffer(_ touch: Touch, to i: Int) -> Bool {
        slots[i].configuration.policy.toolTypes.contains(touch.toolType)
            && slots[i].configuration.region.contains(
                touch.startPosition,
                surfaceWidth: surfaceWidth,
                surfaceHeight: surfaceHeight
            )
    }

    /// Policies acting as shouldBegin (spec §3.4); the reason when the answer is no.
    func shouldNotBegin(_ i: Int) -> String? {
        let policy = slots[i].configuration.policy
        if !mayBeginOnThisDevice(i) { return "device kind not allowed" }
        let fingers = slots[i].recognizer.values(at: now).fingers
        if fingers < policy.minimumFingers || fingers > policy.maximumFingers {
            return "\(fingers) fingers outside the policy range"
        }
        if policy.failsOnButtonPress, isButtonPressed { return "button pressed" }
        return nil
    }

    /// An active recognizer that prevents slot `i` (spec §5.3 b).
    func blocker(of i: Int) -> Int? {
        for a in slots.indices where slots[a].state.isActive && prevents(a, i) { return a }
        return nil
    }

    /// §5.4: commit began / recognized, exclude competitors, fail dependents, take the touches.
    mutating func commitBegin(_ i: Int, _ requested: RecognizerState, input: String) {
        noteTransition(i, from: .possible, to: requested, input: input)
        slots[i].state = requested
        slots[i].logical = requested
        slots[i].pending = .none
        slots[i].settling = false
        slots[i].sequence = nextSequence
        nextSequence += 1
        recordAction(i, slots[i].gestureState(for: requested))
        // Within the settling window a continuous gesture spares the competitors that need
        // more fingers than it holds: it yields to them if one more lands.
        let fingers = slots[i].held.count
        slots[i].yields = !slots[i].isDiscrete && isLandingOpen
        slots[i].yieldFingers = fingers
        for b in slots.indices where prevents(i, b) {
            switch slots[b].state {
            case .possible:
                if slots[i].yields, slots[b].minimumFingers > fingers, slots[b].pending == .none,
                    mayBeginOnThisDevice(b)
                {
                    continue
                }
                fail(b, input: recordsTransitions ? "excluded by '\(slots[i].name)'" : "")
            case .began, .changed:
                cancel(b, input: recordsTransitions ? "excluded by '\(slots[i].name)'" : "")
            case .ended, .cancelled, .failed:
                break
            }
        }
        for d in requiredBy[i] where slots[d].state == .possible && slots[d].isInPlay {
            fail(d, input: recordsTransitions ? "'\(slots[i].name)' recognized" : "")
        }
        takeTouches(of: i)
    }

    mutating func fail(_ i: Int, input: String) {
        let from = slots[i].state
        guard !from.isFinal else { return }
        guard from == .possible else {
            // A gesture in progress cannot fail; it is cancelled instead (spec §3.1).
            cancel(i, input: input)
            return
        }
        noteTransition(i, from: from, to: .failed, input: input)
        slots[i].state = .failed
        slots[i].logical = .failed
        slots[i].pending = .none
        slots[i].settling = false
    }

    mutating func cancel(_ i: Int, input: String) {
        let from = slots[i].state
        guard from.isActive else {
            fail(i, input: input)
            return
        }
        noteTransition(i, from: from, to: .cancelled, input: input)
        slots[i].state = .cancelled
        slots[i].logical = .cancelled
        recordAction(i, .cancelled)
    }

    /// Ends an attempt from outside (disable, removal, device reset).
    mutating func terminate(_ i: Int, input: String) {
        switch slots[i].state {
        case .began, .changed: cancel(i, input: input)
        case .possible where slots[i].isInPlay || slots[i].pending != .none: fail(i, input: input)
        case .possible, .ended, .cancelled, .failed: break
        }
    }

    /// A recognizer left possible with no touches and no timer can never decide; it fails so
    /// that its dependents are not blocked forever (a custom recognizer that forgot to fail).
    mutating func failStrandedRecognizers() {
        for i in slots.indices
        where slots[i].state == .possible && slots[i].pending == .none && slots[i].held.isEmpty
            && !slots[i].history.isEmpty && slots[i].timers.isEmpty
        {
            fail(i, input: "no touches left")
        }
    }

    mutating func recordAction(_ i: Int, _ state: GestureState) {
        let v = slots[i].currentValues(at: now)
        var event = GestureEvent(
            name: slots[i].configuration.name,
            kind: slots[i].gestureKind,
            state: state,
            timestamp: now,
            sequence: slots[i].sequence,
            reported: v,
            // device.fraction(of:) with the surface size computed once at init.
            locationFraction: PhysicalPoint(
                x: surfaceWidth > 0 ? v.location.x / surfaceWidth : 0,
                y: surfaceHeight > 0 ? v.location.y / surfaceHeight : 0
            )
        )
        deriveMotion(of: &event, slot: i)
        if state == .changed, let k = slots[i].changedActionIndex {
            actions[k] = event
            return
        }
        if state == .changed { slots[i].changedActionIndex = actions.count }
        actions.append(event)
    }

    /// The values a shell needs besides the recognizer's (``GestureMotion``): a continuous
    /// gesture's deltas since its previous event (a `changed` that replaces one of the same
    /// step measures from the event before that one), its translation as a fraction of the
    /// surface, and its fling on `ended`; a discrete one's translation fraction.
    mutating func deriveMotion(of event: inout GestureEvent, slot i: Int) {
        guard !slots[i].isDiscrete else {
            if let t = event.translation {
                event.translationFraction = GestureMotion.fraction(
                    of: t,
                    surfaceWidth: surfaceWidth,
                    surfaceHeight: surfaceHeight
                )
            }
            return
        }
        let reference: GestureMotion.Reference
        switch event.state {
        case .began:
            reference = .start
        case .changed where slots[i].changedActionIndex != nil:
            reference = slots[i].motionBeforeChanged
        case .changed:
            reference = slots[i].motion
            slots[i].motionBeforeChanged = reference
        default:
            reference = slots[i].motion
        }
        event.deriveMotion(from: reference, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
        slots[i].motion = event.motionReference
    }

    // MARK: - Settle loop (spec §5.5 step 4)

    mutating func settle() {
        for _ in 0...(slots.count + 1) {
            var changed = false
            // Pending recognizers in the order they asked: when several are released at once
            // (the landing settled), the first to ask commits first (spec §5.3: the first wins).
            var after: UInt64 = 0
            while let r = nextPending(after: after) {
                after = slots[r].pendingSerial
                var someRecognized = false
                var allFailed = true
                for s in requires[r] where slots[s].isInPlay {
                    switch slots[s].state {
                    case .began, .changed, .ended, .cancelled: someRecognized = true
                    case .possible: allFailed = false
                    case .failed: break
                    }
                }
                if someRecognized {
                    fail(r, input: "a required recognizer recognized")
                    changed = true
                } else if allFailed {
                    let settled = !slots[r].settling
                    if !settled {
                        if mustSettle(r) { continue }
                        slots[r].settling = false
                    }
                    changed = true
                    if let blocker = blocker(of: r) {
                        fail(r, input: recordsTransitions ? "prevented by '\(slots[blocker].name)'" : "")
                        continue
                    }
                    let pending = slots[r].pending
                    slots[r].pending = .none
                    // After waiting for a failure, a recognizer starts from there (a pan's
                    // translation from 0, spec §5.5); after the landing settled it keeps what
                    // its fingers did meanwhile.
                    if requires[r].contains(where: { slots[$0].isInPlay }) {
                        context.clear(now: now, state: slots[r].logical)
                        slots[r].recognizer.handle(.willBegin, context: &context)
                    }
                    let reason = settled ? "failure requirements met" : "landing settled"
                    switch pending {
                    case .began:
                        commitBegin(r, .began, input: reason)
                    case .beganThenEnded:
                        commitBegin(r, .began, input: reason)
                        if slots[r].state == .began {
                            noteTransition(r, from: .began, to: .ended, input: "queued end")
                            slots[r].state = .ended
                            recordAction(r, .ended)
                        }
                    case .recognized:
                        commitBegin(r, .ended, input: reason)
                    case .none:
                        break
                    }
                }
            }
            if !changed { return }
        }
        note(.engineBug("settle loop did not converge"))
    }

    /// The pending, possible slot that asked first after serial `after`.
    func nextPending(after: UInt64) -> Int? {
        var best: Int?
        for r in slots.indices
        where slots[r].pending != .none && slots[r].state == .possible && slots[r].pendingSerial > after {
            if best.map({ slots[r].pendingSerial < slots[$0].pendingSerial }) ?? true { best = r }
        }
        return best
    }

    // MARK: - Reset (spec §5.5 step 7)

    ///
    /// A recognizer in a final state resets only once the touch sequence has ended for it: no
    /// touch it could be offered (its tool types, its region) is still down. Until then it is
    /// offered nothing, so a one-finger recognizer that failed when a second finger landed
    /// cannot start over on a third finger landing alone (spec §5.5 step 7, §8 item 11, as
    /// UIKit). Disabled recognizers reset at once.
    ///
    /// Whether the sequence is open is looked at when a slot has just finished and again only
    /// in steps where some touch stopped keeping sequences open (``sequenceMayHaveEnded``):
    /// touches landing cannot close one, so a steady frame costs one flag test per finished
    /// slot, not a walk over the touches down.
    mutating func resetFinishedRecognizers() {
        for i in slots.indices {
            let isFinal = slots[i].state.isFinal
            guard isFinal || (!slots[i].isEnabled && !slots[i].history.isEmpty) else { continue }
            if isFinal, slots[i].isEnabled, !slots[i].restartsWithTouchesDown {
                // Still waiting, and no touch lifted: nothing to look at, nothing to write.
                if slots[i].awaitsSequenceEnd && !sequenceMayHaveEnded && slots[i].timers.isEmpty { continue }
                if slots[i].awaitsSequenceEnd && !sequenceMayHaveEnded || sequenceIsOpen(for: i) {
                    // Waiting for the sequence to end: its timers can decide nothing any more.
                    if !slots[i].awaitsSequenceEnd { slots[i].awaitsSequenceEnd = true }
                    if !slots[i].timers.isEmpty { slots[i].timers.removeAll(keepingCapacity: true) }
                    continue
                }
            }
            slots[i].awaitsSequenceEnd = false
            slots[i].state = .possible
            slots[i].logical = .possible
            slots[i].pending = .none
            slots[i].settling = false
            slots[i].yields = false
            slots[i].movesDeferred = false
            slots[i].fingersOutOfRangeSince = nil
            if slots[i].restartsWithTouchesDown {
                slots[i].restartsWithTouchesDown = false
                slots[i].reoffersTouches = slots[i].isEnabled
                if slots[i].isEnabled { reoffersTouches = true }
            } else {
                slots[i].reoffersTouches = false
                slots[i].restartsOnLandingFailure = false
            }
            slots[i].timers.removeAll(keepingCapacity: true)
            slots[i].held.removeAll(keepingCapacity: true)
            slots[i].history.removeAll(keepingCapacity: true)
            slots[i].recognizer.handle(.reset, context: &context)
        }
    }

    /// True while some touch still down could be offered to slot `i` (spec §5.2): the touch
    /// sequence that the slot took part in has not ended for it.
    func sequenceIsOpen(for i: Int) -> Bool {
        if active.isEmpty { return false }
        for touch in active where keepsSequenceOpen(touch, for: i) { return true }
        return false
    }

    /// True when `touch`, down, keeps the sequence of slot `i` open: the one predicate
    /// ``sequenceIsOpen(for:)`` asks. A touch the touch filter delivers flagged as a palm
    /// should not (it would hold every finished recognizer out until the palm lifts): skip it
    /// here, and set ``sequenceMayHaveEnded`` in the step its flag turns on, as a lift does.
    func keepsSequenceOpen(_ touch: Touch, for i: Int) -> Bool {
        canOffer(touch, to: i)
    }
}
