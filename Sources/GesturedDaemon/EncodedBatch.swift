public import GesturedProtocol

/// The lines the input side publishes for one frame (or one hot-plug, one timer step), each
/// encoded once into one buffer that every client's write and outbox share (DESIGN.md "Daemon, event loop and socket protocol" ›
/// "The wire"): fan-out by reference, no copy or re-encoding per client.
///
/// Sendable by a rule, not by a lock: the owner fills a batch and then publishes it, and a
/// published batch is never written again. The input hub reuses its batch for the next frame
/// only when nothing else holds it (`isKnownUniquelyReferenced`: no outbox kept one of its
/// lines, no queued hand-off to another thread); otherwise it starts a new one.
public final class EncodedBatch: @unchecked Sendable {
    /// Every line of the batch, back to back, each ending in `\n`.
    public private(set) var bytes: [UInt8] = []
    /// The lines in order, with what the clients' filters read.
    public private(set) var events: [PublishedEvent] = []

    /// Empty, with no storage reserved: a batch a slow client's outbox keeps alive holds only
    /// what its lines need (the hub's kept batches keep the capacity they grew to).
    public init() {}

    /// Empty, with room for a typical frame's lines (a batch the pools keep: it does not
    /// regrow line by line on its first frames).
    init(reservingBytes bytes: Int, events: Int) {
        self.bytes.reserveCapacity(bytes)
        self.events.reserveCapacity(events)
    }

    /// A batch holding `bytes` as they are, with no event (a reply queued in an outbox).
    init(raw bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isEmpty: Bool { events.isEmpty }

    /// Some line is not for every subscriber without filters: a raw touch, or a gesture line
    /// for one audience of a locked seat. When false, a client without filters takes the
    /// whole batch and the fan-out asks no filter per line.
    public private(set) var restricted = false

    /// Forgets the lines, keeping the storage (the hub's next frame).
    func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        restricted = false
    }

    /// Appends one line written by `write` (which appends the bytes of exactly one line and
    /// returns false, having written nothing usable, when it cannot), described by `facts`.
    /// - Returns: false when `write` failed (the partial bytes are removed).
    @discardableResult
    func append(_ facts: consuming PublishedEvent, write: (inout [UInt8]) -> Bool) -> Bool {
        let start = bytes.count
        guard write(&bytes) else {
            bytes.removeSubrange(start...)
            return false
        }
        if facts.audience != nil || facts.kind == .touch { restricted = true }
        // Taken, not copied: the caller's description is moved into the list and its range
        // set there (each copy of one costs a reference count per string).
        events.append(facts)
        events[events.count - 1].range = start..<bytes.count
        return true
    }

    /// Appends every line of `other`, in order (the fan-out's one batch for a wake-up's
    /// publishes): its bytes copied once, its events with their ranges moved.
    func append(contentsOf other: EncodedBatch) {
        let offset = bytes.count
        bytes += other.bytes
        for var event in other.events {
            event.range = (event.range.lowerBound + offset)..<(event.range.upperBound + offset)
            events.append(event)
        }
        restricted = restricted || other.restricted
    }

    /// The bytes of one of ``events``.
    public func line(_ event: PublishedEvent) -> ArraySlice<UInt8> { bytes[event.range] }

    // MARK: Building from messages (hot-plug events, tests, tools: not the per-frame path)

    /// A gesture line from a decoded-style message (the per-frame path writes straight from
    /// the engine's event instead, ``WireMapping/appendGesture(_:device:locked:consumed:audience:state:to:)``).
    @discardableResult
    public func append(gesture m: GestureEventMessage, audience: GestureAudience? = nil) -> Bool {
        let facts = PublishedEvent(
            kind: .gesture, device: m.device, deviceName: m.deviceName, name: m.name, gestureKind: m.kind, state: m.state,
            audience: audience, coalesceKey: m.state == .changed ? .message(m.gestureID) : nil)
        return append(facts) { m.wireLine(into: &$0) }
    }

    @discardableResult
    public func append(touch m: TouchEventMessage) -> Bool {
        append(PublishedEvent(kind: .touch, device: m.device, deviceName: "")) { m.wireLine(into: &$0) }
    }

    public func append(deviceAdded info: DeviceInfo) {
        appendGeneric(.deviceAdded(info), PublishedEvent(kind: .deviceAdded, device: info.device, deviceName: info.name))
    }

    public func append(deviceRemoved event: DeviceRemovedEvent) {
        appendGeneric(.deviceRemoved(event), PublishedEvent(kind: .deviceRemoved, device: event.device, deviceName: event.name))
    }

    private func appendGeneric(_ message: DaemonMessage, _ facts: PublishedEvent) {
        guard let line = try? MessageEncoder().encode(message) else { return }
        append(facts) {
            $0 += line
            return true
        }
    }

    /// A batch of gesture and touch messages (tests and tools).
    public convenience init(gestures: [GestureEventMessage] = [], touches: [TouchEventMessage] = []) {
        self.init()
        for g in gestures { append(gesture: g) }
        for t in touches { append(touch: t) }
    }

    /// A batch of one device event.
    public static func deviceAdded(_ info: DeviceInfo) -> EncodedBatch {
        let batch = EncodedBatch()
        batch.append(deviceAdded: info)
        return batch
    }

    public static func deviceRemoved(_ event: DeviceRemovedEvent) -> EncodedBatch {
        let batch = EncodedBatch()
        batch.append(deviceRemoved: event)
        return batch
    }
}

/// Batches to refill, so that a frame costs no allocation for its lines (DESIGN.md "Daemon, event loop and socket protocol" ›
/// "The wire"). A batch is refilled only when nothing else holds it
/// (`isKnownUniquelyReferenced`: no outbox keeps one of its lines). When every kept batch is
/// still held — a slow client's outbox queues lines of the last frames — the pool grows by
/// one instead of giving its slot to a new batch, so once it has grown to the backlog's depth
/// a lagging client no longer makes the next frame allocate; it grows up to ``limit``, then
/// a new batch takes the place of the oldest.
struct BatchPool {
    private var batches: [EncodedBatch] = []
    private var replaced = 0
    let limit: Int

    init(initial: Int, limit: Int) {
        self.limit = max(limit, initial)
        batches.reserveCapacity(self.limit)
        for _ in 0..<initial { batches.append(EncodedBatch(reservingBytes: Self.reservedBytes, events: Self.reservedEvents)) }
    }

    /// Room a new batch starts with: a frame of a few gesture lines (each 300–600 bytes).
    static let reservedBytes = 2048
    static let reservedEvents = 8

    /// The most bytes a kept batch keeps room for.
    static let keptCapacity = 65536

    /// How many batches are kept.
    var count: Int { batches.count }

    /// An empty batch that nothing else holds.
    mutating func take() -> EncodedBatch {
        for index in batches.indices where isKnownUniquelyReferenced(&batches[index]) {
            // One that held a burst (a recording replayed at once) is not kept at that size.
            if batches[index].bytes.capacity > Self.keptCapacity {
                batches[index] = EncodedBatch(reservingBytes: Self.reservedBytes, events: Self.reservedEvents)
            } else {
                batches[index].removeAll()
            }
            return batches[index]
        }
        let batch = EncodedBatch(reservingBytes: Self.reservedBytes, events: Self.reservedEvents)
        if batches.count < limit {
            batches.append(batch)
        } else {
            batches[replaced] = batch
            replaced = (replaced + 1) % limit
        }
        return batch
    }
}

/// One line of an ``EncodedBatch``: where its bytes are and what the clients' filters
/// (``SubscribeRequest``) and the lock policy read, so that nobody decodes the line again.
/// Its strings are the device's and the configuration's own (shared storage, no copy).
public struct PublishedEvent: Sendable {
    public enum Kind: Sendable, Equatable {
        case gesture
        case touch
        case deviceAdded
        case deviceRemoved
    }

    public var kind: Kind
    /// Device node.
    public var device: String
    /// The kernel's device name ("" for touches, which the `devices` filter matches by node).
    public var deviceName: String
    /// Gesture events: the configured name, the kind's wire name and the state.
    public var name: String = ""
    public var gestureKind: String = ""
    public var state: WireGestureState?
    /// nil: every client; else only this audience (a locked seat, ``LockGate``).
    public var audience: GestureAudience?
    /// Set on `changed` gesture events: the gesture a slow client's outbox may coalesce.
    public var coalesceKey: CoalesceKey?
    /// The line's bytes in the batch.
    public internal(set) var range: Range<Int> = 0..<0

    public init(
        kind: Kind, device: String, deviceName: String, name: String = "", gestureKind: String = "", state: WireGestureState? = nil,
        audience: GestureAudience? = nil, coalesceKey: CoalesceKey? = nil
    ) {
        self.kind = kind
        self.device = device
        self.deviceName = deviceName
        self.name = name
        self.gestureKind = gestureKind
        self.state = state
        self.audience = audience
        self.coalesceKey = coalesceKey
    }

    /// Whether a client with `subscription` (root or not) receives this line.
    public func isWanted(by subscription: SubscribeRequest, root: Bool) -> Bool {
        switch kind {
        case .gesture:
            if let audience, (audience == .root) != root { return false }
            return subscription.matches(name: name, kind: gestureKind, state: state, device: device, deviceName: deviceName)
        case .touch:
            return subscription.wantsRawTouches && subscription.matchesDevice(node: device, name: "")
        case .deviceAdded, .deviceRemoved:
            return subscription.matchesDevice(node: device, name: deviceName)
        }
    }
}

/// Which gesture attempt a `changed` line belongs to, for coalescing: the device and the
/// engine's sequence, compared without building the `gesture_id` string.
public enum CoalesceKey: Hashable, Sendable, ExpressibleByStringLiteral {
    case attempt(device: String, sequence: UInt64)
    /// A `gesture_id` taken from a message (tests and tools).
    case message(String)

    public init(stringLiteral value: String) { self = .message(value) }
}

/// Who receives a gesture line restricted by ``LockGate``.
public enum GestureAudience: Sendable, Equatable {
    /// Clients whose peer uid (SO_PEERCRED) is 0.
    case root
    /// Every other client.
    case others
}

/// Receives published batches. `publish` must not block the caller (the input loop).
public protocol EventPublisher: Sendable {
    func publish(_ batch: EncodedBatch)
    /// Whether anyone takes raw `touch` events now; when not, the input side does not encode
    /// them (a touchpad's sink passes every touch of every frame). May be called from any
    /// thread; a stale answer only delays the first touches of a new raw subscriber by a
    /// frame.
    var wantsTouches: Bool { get }
}
