/// The recognizer engine: frames and time in, gesture events and the next deadline out.
///
/// Pure: no clock reads, no I/O, no logging, no locks (STYLE.md B1.1). One instance per device.
/// Every call is one or more *engine steps* (spec §5.5): timers first, then touch assignment,
/// delivery to recognizers in engine order, the settle loop for failure requirements, raw-touch
/// delivery to the sink (spec §7), emission, and the reset of finished recognizers.
///
/// Engine order: priority (descending), then region area (innermost first, like UIKit's
/// hit-testing), then declaration order.
public struct GestureEngine: Sendable {
    /// The device whose frames this engine judges (surface size for regions and fractions).
    public let device: DeviceDescription
    /// The configuration in force; change it with ``reconfigure(_:at:)`` or ``setEnabled(_:name:at:)``.
    public private(set) var configuration: EngineConfiguration

    /// Recognizers in engine order.
    var slots: [Slot] = []
    /// `requires[i]`: slots that must fail before slot `i` may begin (cycle-free).
    var requires: [[Int]] = []
    /// `requiredBy[j]`: slots waiting for slot `j`.
    var requiredBy: [[Int]] = []
    /// n×n: the static part of prevents(a, b) (canPrevent, canBePrevented, not simultaneous).
    var mayPrevent: [Bool] = []

    var active: [Touch] = []
    var suppressed: [TouchID] = []
    var sink: [SinkRecord] = []
    /// Emptied event arrays of finished sink records, for the next touches' records.
    var spareSinkEvents: [[SinkTouchEvent]] = []
    static let spareSinkEventsLimit = 16
    var now = Timestamp(microseconds: Int64.min)
    var nextSequence: UInt64 = 1
    /// The sequence the next recognition attempt will get: every attempt so far had a smaller one.
    public var upcomingSequence: UInt64 { nextSequence }
    var timerSerial: UInt64 = 0
    var pendingSerial: UInt64 = 0
    var isButtonPressed = false
    /// When the first touch of the current sequence landed (no touch was down before it).
    var sequenceStart: Timestamp?
    /// Some touch stopped keeping sequences open in this step (it lifted or was cancelled):
    /// finished recognizers waiting for their sequence to end look again
    /// (``resetFinishedRecognizers()``); otherwise their answer cannot have changed.
    var sequenceMayHaveEnded = false
    /// Some slot is outside its finger range (``checkFingerRange()``), or waits to take the
    /// touches down after a finger-change cancel (``reofferTouchesAfterFingerChange()``):
    /// while false, both skip their walk over the slots.
    var watchesFingerRange = false
    var reoffersTouches = false

    /// Whether state transitions are kept as diagnostics (``EngineDiagnostic/transition``),
    /// reasons and all. On by default (tests, transcripts, `--verbose`); the daemon turns it
    /// off unless it logs at debug level, so that a landing or a lift builds no reason string
    /// nobody reads (DESIGN.md "Engine and arbitration" › "Delivery to the sink and the outputs").
    public var recordsTransitions = true

    /// Whether the engine follows touches for the sink (spec §7) and emits them as
    /// ``EngineOutput/touch(_:)``. On by default (the engine's contract); a host whose sink
    /// output nobody reads (the daemon with no raw-touch subscriber and no grab clone) turns it
    /// off, so a frame builds no sink record or event that is thrown away. Turned off, the
    /// records are forgotten at once (nobody waits for their held-back events); turned on,
    /// the sink follows the touches that begin from then on, each from its `began` (a touch
    /// already down stays out of it until it lifts: its record is made finished), so every
    /// touch the sink emits is whole from its start (DESIGN.md "Engine and arbitration" › "Delivery to the sink and the outputs").
    /// Recognition does not depend on it.
    public var deliversTouches = true {
        didSet {
            guard deliversTouches != oldValue else { return }
            if deliversTouches {
                for touch in active {
                    var record = SinkRecord(id: touch.id, position: touch.position)
                    record.slot = touch.slot
                    record.finished = true
                    sink.append(record)
                }
                return
            }
            forgetSinkRecords { _ in true }
        }
    }
    var diagnostics: [EngineDiagnostic] = []
    var droppedDiagnostics = 0
    /// Maximum diagnostics kept between two drains.
    static let diagnosticsCapacity = 4096

    // Per-step scratch, kept to avoid allocating on every frame.
    var actions: [GestureEvent] = []
    var sinkOutput: [SinkTouchEvent] = []
    var context: RecognizerContext
    var frameBegan: [Touch] = []
    var frameMoved: [Touch] = []
    var frameEnded: [Touch] = []
    var frameCancelled: [Touch] = []
    var subset: [Touch] = []

    let surfaceWidth: Double
    let surfaceHeight: Double

    /// An engine for `device` running `configuration`. Configuration problems (unknown names,
    /// require-to-fail cycles) are dropped and reported through ``drainDiagnostics()``.
    /// `firstSequence` numbers the first attempt (``GestureEvent/sequence``): a daemon that
    /// opens a device again (a replug reusing its node) starts past every sequence it gave out
    /// before, so a `gesture_id` is never reused while it runs.
    public init(device: DeviceDescription, configuration: EngineConfiguration, firstSequence: UInt64 = 1) {
        self.device = device
        self.nextSequence = max(firstSequence, 1)
        self.configuration = configuration
        self.surfaceWidth = device.widthMillimeters
        self.surfaceHeight = device.heightMillimeters
        self.context = RecognizerContext(
            now: .zero,
            state: .possible,
            sloppiness: configuration.sloppiness,
            surfaceWidth: device.widthMillimeters,
            surfaceHeight: device.heightMillimeters
        )
        self.context.settlingWindow = configuration.settlingWindow
        self.slots = configuration.recognizers.enumerated().map { index, rc in
            Slot(
                configuration: rc,
                declarationIndex: index,
                area: rc.region.area(surfaceWidth: device.widthMillimeters, surfaceHeight: device.heightMillimeters)
            )
        }
        buildRelations()
    }

    // MARK: - Public API

    /// Runs one engine step for `frame` (spec §5.5); `frame.timestamp` is "now". Deadlines up
    /// to and including the frame's time fire first, as their own steps.
    public mutating func process(_ frame: Frame) -> [EngineOutput] {
        var out: [EngineOutput] = []
        process(frame, into: &out)
        return out
    }

    /// ``process(_:)`` appending to `out` instead of returning a new array, so that a caller
    /// reusing one buffer (`removeAll(keepingCapacity: true)`) allocates nothing per frame.
    public mutating func process(_ frame: Frame, into out: inout [EngineOutput]) {
        advance(to: frame.timestamp, into: &out)
        beginStep(at: frame.timestamp)
        ingest(frame)
        handleButton(frame.isButtonPressed)
        reofferTouchesAfterFingerChange()
        assignBeganTouches()
        deliverFrame()
        yieldToLanding()
        checkFingerRange()
        failStrandedRecognizers()
        finishStep(into: &out)
    }

    /// Fires every deadline ≤ `now` (spec §6.2), each deadline as one step. Times never go
    /// backwards: an earlier `now` is treated as the current time.
    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        var out: [EngineOutput] = []
        advance(to: time, into: &out)
        return out
    }

    /// ``advance(to:)`` appending to `out`.
    public mutating func advance(to time: Timestamp, into out: inout [EngineOutput]) {
        let target = max(time, now)
        // A recognizer that keeps re-arming a timer for "now" would spin here forever; after a
        // generous number of steps its due timers are dropped and the bug reported.
        var budget = 64 * (slots.count + 1)
        while let deadline = nextDeadline, deadline <= target {
            budget -= 1
            if budget < 0 {
                note(.engineBug("timers kept firing at \(deadline); dropped every timer due by \(target)"))
                for i in slots.indices { slots[i].timers.removeAll { $0.deadline <= target } }
                break
            }
            beginStep(at: deadline)
            fireTimers(at: deadline)
            checkFingerRange()
            failStrandedRecognizers()
            finishStep(into: &out)
        }
        now = target
    }

    /// Cancels everything in flight (device gone, grab lost): every active touch is cancelled,
    /// gestures in progress are cancelled, possible ones fail, held-back sink events resolve.
    public mutating func reset(at time: Timestamp) -> [EngineOutput] {
        var out = advance(to: time)
        beginStep(at: time)
        let touches = active.map { touch -> Touch in
            var t = touch
            t.previousPosition = t.position
            t.phase = .cancelled
            return t
        }
        ingest(Frame(timestamp: now, touches: touches, isSynthetic: true))
        deliverFrame()
        for i in slots.indices { terminate(i, input: "reset") }
        finishStep(into: &out)
        return out
    }

    /// Enables or disables the recognizer called `name` (spec §3.3). Disabling cancels a
    /// gesture in progress and fails a possible one. Unknown names are reported as a
    /// configuration diagnostic.
    public mutating func setEnabled(_ enabled: Bool, name: String, at time: Timestamp) -> [EngineOutput] {
        var out = advance(to: time)
        guard let i = slots.firstIndex(where: { $0.name == name }) else {
            note(.configuration("no recognizer named '\(name)' to \(enabled ? "enable" : "disable")"))
            return out
        }
        beginStep(at: time)
        if !enabled { terminate(i, input: "disabled") }
        slots[i].configuration.isEnabled = enabled
        if let c = configuration.recognizers.firstIndex(where: { $0.name == name }) {
            configuration.recognizers[c].isEnabled = enabled
        }
        finishStep(into: &out)
        return out
    }

    /// Replaces the configuration at `time`. Recognizers whose configuration is unchanged (same
    /// name, equal ``RecognizerConfiguration``) keep running; removed or changed ones are
    /// cancelled or failed as if disabled; new ones see only touches that begin afterwards.
    public mutating func reconfigure(_ newConfiguration: EngineConfiguration, at time: Timestamp) -> [EngineOutput] {
        var out = advance(to: time)
        beginStep(at: time)
        var kept: [String: Int] = [:]
        for i in slots.indices {
            if newConfiguration.sloppiness == configuration.sloppiness,
                newConfiguration.settlingWindow == configuration.settlingWindow,
                newConfiguration.continuousSettling == configuration.continuousSettling,
                newConfiguration.fingerChangeTimeout == configuration.fingerChangeTimeout,
                newConfiguration.recognizers.contains(where: { $0 == slots[i].configuration })
            {
                kept[slots[i].name] = i
            } else {
                terminate(i, input: "reconfigured")
            }
        }
        finishStep(into: &out)
        var newSlots: [Slot] = []
        for (index, rc) in newConfiguration.recognizers.enumerated() {
            if let old = kept.removeValue(forKey: rc.name) {
                var slot = slots[old]
                slot.changedActionIndex = nil
                slot.declarationIndex = index
                newSlots.append(slot)
            } else {
                newSlots.append(
                    Slot(
                        configuration: rc,
                        declarationIndex: index,
                        area: rc.region.area(surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
                    )
                )
            }
        }
        configuration = newConfiguration
        context.sloppiness = newConfiguration.sloppiness
        context.settlingWindow = newConfiguration.settlingWindow
        slots = newSlots
        buildRelations()
        return out
    }

    /// The earliest pending timer, for the daemon's single timer.
    public var nextDeadline: Timestamp? {
        var earliest = landingDeadline
        if let end = fingerRangeDeadline, earliest.map({ end < $0 }) ?? true { earliest = end }
        for i in slots.indices {
            for timer in slots[i].timers where earliest.map({ timer.deadline < $0 }) ?? true {
                earliest = timer.deadline
            }
        }
        return earliest
    }

    /// Whether ``drainDiagnostics()`` has anything to return (checked per frame, for free).
    public var hasDiagnostics: Bool { !diagnostics.isEmpty || droppedDiagnostics > 0 }

    /// Diagnostics collected since the last call; the caller logs them.
    public mutating func drainDiagnostics() -> [EngineDiagnostic] {
        guard hasDiagnostics else { return [] }
        var drained = diagnostics
        if droppedDiagnostics > 0 {
            drained.append(.engineBug("\(droppedDiagnostics) diagnostics dropped (not drained in time)"))
        }
        diagnostics.removeAll()
        droppedDiagnostics = 0
        return drained
    }

    /// Names of the recognizers in engine order (priority, innermost region, declaration).
    public var engineOrder: [String] { slots.map(\.name) }

    /// The arena state of recognizer `name` (`possible` while a request is pending).
    public func state(of name: String) -> RecognizerState? {
        slots.first { $0.name == name }?.state
    }

    // MARK: - Diagnostics

    mutating func note(_ diagnostic: EngineDiagnostic) {
        if diagnostics.count < Self.diagnosticsCapacity {
            diagnostics.append(diagnostic)
        } else {
            droppedDiagnostics += 1
        }
    }

    mutating func noteTransition(_ i: Int, from: RecognizerState, to: RecognizerState, input: String) {
        guard recordsTransitions else { return }
        let slot = slots[i]
        note(
            .transition(
                recognizer: slot.name,
                from: slot.gestureState(for: from),
                input: input,
                to: slot.gestureState(for: to)
            )
        )
    }
}
