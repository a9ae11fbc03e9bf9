/// Resting thumbs (libinput's `tp_thumb_*`): a contact that begins in the bottom band is
/// held back until it travels ``TouchFilterSettings/thumbReleaseDistance`` or rises above
/// ``TouchFilterSettings/thumbExitFraction``, so a thumb resting there while other fingers
/// work is never seen; and when a finger lands beside two others, the lower of two fingers
/// far apart diagonally is a thumb (`tp_thumb_update_multifinger`), ``PalmReason/thumb``.
/// Touchpad chain only.
struct ThumbStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let bands: FilterBands
    let rules: PalmRules

    /// libinput detects thumbs by position only on touchpads at least this high (mm).
    static let detectionMinimumHeight = 50.0

    /// Contacts landing within this long of each other belong to one hand: libinput's
    /// `THUMB_TIMEOUT` (100 ms), the same span as its finger-count debounce and the engine's
    /// settling window.
    static let companionWindow = 0.1

    /// A band contact needs this many companions (a three-finger landing at least): two
    /// contacts landing low together may be a thumb and a finger, and holding them costs a
    /// scroll nothing (they are let go as they rise out of the band), while the finger count
    /// of a three- or four-finger sideways swipe is decided at landing and its lowest finger
    /// never leaves the band. (Two were tried: link's close two-finger scroll starting in the
    /// band, whose second finger flickers out, turned into pointer motion; tuning 289 → 288.)
    static let handCompanions = 2

    /// The contacts landing in the current frame (``begin(_:)``), kept for the
    /// frame's lowest contact to see the fingers landing with it. Reused: no allocation per frame.
    private var landings: [(id: TouchID, position: PhysicalPoint)]
    /// The frame's finger count by `BTN_TOOL_*` (0 when it says none): a two-slot pad reports
    /// four fingers landing as two positions and a count.
    private var countedFingers = 0

    init(settings: TouchFilterSettings, bands: FilterBands, rules: PalmRules) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.bands = bands
        self.rules = rules
        landings = []
        landings.reserveCapacity(5)
    }

    mutating func reset() {
        landings.removeAll()
        countedFingers = 0
    }

    /// A resting thumb taken out ahead of the frame as a finger lands beside two others; the
    /// frame's landings that are no palm, for the frame's lowest contact to see the fingers
    /// landing with it.
    mutating func begin(_ frame: inout FilterFrame) {
        let input = frame.input
        // Only a landing can reveal a resting thumb.
        if detectsDiagonalThumbs, input.touches.contains(where: { $0.phase == .began }),
            let thumb = diagonalThumb(before: input, table: &frame.table)
        {
            frame.deliverAhead([thumb], at: frame.now)
        }
        landings.clear()
        countedFingers = input.fingerCount ?? 0
        for touch in input.touches where touch.phase == .began && rules.palmReason(touch) == nil {
            landings.append((touch.id, touch.position))
        }
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard step.state == .judging else { return }
        switch step.touch.phase {
        case .began:
            if step.contact.role == .finger && holdsBack(step.touch, at: frame.now, table: frame.table) {
                step.contact.role = .thumbCandidate
            }
        case .moved, .stationary:
            if step.contact.role == .thumbCandidate && releases(step.touch, step.contact, table: frame.table) {
                step.state = .releasing
            }
        case .ended, .cancelled:
            return
        }
    }

    /// A new contact there is held back — unless it lands with the hand (``landsWithHand``).
    /// (The bottom corners are thumb country first: a thumb there moves along the band, out
    /// of the edge band, and must not count as a finger for that.)
    func holdsBack(_ touch: Touch, at now: Timestamp, table: ContactTable) -> Bool {
        guard bands.inThumbBand(touch.position) && settings.enables(.thumbBand) else { return false }
        return !landsWithHand(touch.id, at: touch.position, landed: now, table: table, includingLandings: true)
    }

    /// Whether a bottom-band contact is a finger of the hand rather than a resting thumb:
    /// another contact (a finger, or a contact held in the band) landed within
    /// ``companionWindow`` of it and lies within ``TouchFilterSettings/thumbDiagonalWidth`` across
    /// and ``TouchFilterSettings/thumbDiagonalHeight`` vertically of it. libinput's
    /// `tp_thumb_update_multifinger` keeps the two lowest touches live when they are that close
    /// (its 35 × 25 mm), and jails a bottom-band contact only when it lands alone; a four-finger
    /// swipe's lowest finger on a short pad lands 4 mm from the bottom, 15 mm below the next.
    /// A thumb resting alone, or landing long after the fingers, stays a thumb.
    func landsWithHand(
        _ id: TouchID, at position: PhysicalPoint, landed: Timestamp, table: ContactTable, includingLandings: Bool
    ) -> Bool {
        func near(_ p: PhysicalPoint) -> Bool {
            abs(p.x - position.x) < settings.thumbDiagonalWidth && abs(p.y - position.y) < settings.thumbDiagonalHeight
        }
        var companions = 0
        var close = false
        if includingLandings {
            for landing in landings where landing.id != id {
                companions += 1
                if near(landing.position) { close = true }
            }
        }
        for (other, contact) in table.contacts where other != id {
            // A contact of this frame stepped before this one is in both lists: count it once.
            if includingLandings && landings.contains(where: { $0.id == other }) { continue }
            guard contact.role == .finger || contact.role == .thumbCandidate,
                abs(contact.startTime - landed) <= Self.companionWindow
            else { continue }
            companions += 1
            if near(contact.role == .finger ? contact.delivered : contact.start) { close = true }
        }
        // Fingers the device counts but does not track (beyond its slots) are companions too.
        companions = max(companions, countedFingers - 1)
        return close && companions >= Self.handCompanions
    }

    /// Whether a held thumb-band contact (not a palm by what it reports) turns finger in a
    /// frame: it travelled, rose out of the band, or a finger of the hand landed beside it
    /// just after it (it was the hand's first finger).
    func releases(_ touch: Touch, _ contact: FilterContact, table: ContactTable) -> Bool {
        let moved = distance(touch.position, contact.start)
        let joined = landsWithHand(touch.id, at: touch.position, landed: contact.startTime, table: table, includingLandings: false)
        return joined || moved >= settings.thumbReleaseDistance || bands.aboveThumbExitLine(touch.position)
    }

    /// Whether ``diagonalThumb(before:table:)`` can find a thumb on this device at all.
    var detectsDiagonalThumbs: Bool {
        settings.thumbDiagonalWidth > 0 && bands.height >= Self.detectionMinimumHeight && settings.enables(.diagonalThumb)
    }

    /// When a finger lands beside two others (touchpads at least 50 mm high): if the two
    /// lowest of them are more than ``TouchFilterSettings/thumbDiagonalWidth`` apart across
    /// and ``TouchFilterSettings/thumbDiagonalHeight`` apart vertically and the lower is a
    /// finger already down, that one is a thumb resting while the fingers work: it is taken
    /// out, its lift (or its cancel, if it is short enough to tap) to go before the frame.
    /// Before the frame, because a recognizer holding two touches fails when a third begins.
    func diagonalThumb(before frame: Frame, table: inout ContactTable) -> Touch? {
        guard detectsDiagonalThumbs else { return nil }
        var landing = 0
        for touch in frame.touches where touch.phase == .began && isLandingFinger(touch) { landing += 1 }
        guard landing > 0, table.fingerCount + landing >= 3 else { return nil }
        var points: [(id: TouchID?, position: PhysicalPoint)] = table.contacts.compactMap {
            $0.value.role == .finger ? ($0.key, $0.value.delivered) : nil
        }
        for touch in frame.touches where touch.phase == .began && isLandingFinger(touch) {
            points.append((nil, touch.position))
        }
        // Lowest first; ties by id (a landing, without one, last), whatever the dictionary's order.
        points.sort { a, b in
            if a.position.y != b.position.y { return a.position.y > b.position.y }
            return (a.id?.rawValue ?? .max) < (b.id?.rawValue ?? .max)
        }
        guard let lowerID = points[0].id, let lower = table[lowerID],
            abs(points[0].position.x - points[1].position.x) > settings.thumbDiagonalWidth,
            abs(points[0].position.y - points[1].position.y) > settings.thumbDiagonalHeight
        else { return nil }
        table[lowerID]?.makePalm(.thumb)
        // As a lift, not a cancel, when it rested longer than a tap: a cancelled touch also
        // cancels the gesture its neighbours are starting.
        let phase: TouchPhase = frame.timestamp - lower.startTime > settings.scrollTapMaximumDuration ? .ended : .cancelled
        var touch = Touch(
            id: lowerID, phase: phase, position: lower.delivered, previousPosition: lower.delivered,
            startPosition: lower.start, startTime: lower.startTime)
        touch.flags.palm = .thumb
        return touch
    }

    /// A contact landing that will be delivered as a finger at once.
    private func isLandingFinger(_ touch: Touch) -> Bool {
        rules.palmReason(touch) == nil && !rules.beginsPressing(touch) && !bands.inEdgeBand(touch.position)
            && !bands.inThumbBand(touch.position)
    }
}
