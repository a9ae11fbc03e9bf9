/// Resting thumbs (libinput's `tp_thumb_*`): a contact that begins in the bottom band is
/// held back until it travels ``TouchFilterSettings/thumbReleaseDistance`` or rises above
/// ``TouchFilterSettings/thumbExitFraction``, so a thumb resting there while other fingers
/// work is never seen; and when a finger lands beside two others, the lower of two fingers
/// far apart diagonally is a thumb (`tp_thumb_update_multifinger`), ``PalmReason/thumb``.
struct ThumbStage: TouchFilterStage {
    let settings: TouchFilterSettings
    let bands: FilterBands
    let isTouchpad: Bool

    /// libinput detects thumbs by position only on touchpads at least this high (mm).
    static let detectionMinimumHeight = 50.0

    mutating func reset() {}

    /// A new contact there is held back. (The bottom corners are thumb country first: a
    /// thumb there moves along the band, out of the edge band, and must not count as a
    /// finger for that.)
    func holdsBack(_ touch: Touch) -> Bool {
        isTouchpad && bands.inThumbBand(touch.position) && settings.enables(.thumbBand)
    }

    /// What becomes of a held thumb-band contact in a frame: its delivered beginning when it
    /// turns finger, nil otherwise.
    func moved(_ touch: Touch, _ contact: inout FilterContact, at now: Timestamp, palms: PalmStage, jitter: JitterStage) -> Touch? {
        if let reason = palms.palmReason(touch) {
            contact.makePalm(reason)
            return nil
        }
        let moved = distance(touch.position, contact.start)
        guard moved >= settings.thumbReleaseDistance || bands.aboveThumbExitLine(touch.position) else { return nil }
        return jitter.release(touch, &contact, at: now)
    }

    /// When a finger lands beside two others (touchpads at least 50 mm high): if the two
    /// lowest of them are more than ``TouchFilterSettings/thumbDiagonalWidth`` apart across
    /// and ``TouchFilterSettings/thumbDiagonalHeight`` apart vertically and the lower is a
    /// finger already down, that one is a thumb resting while the fingers work: it is taken
    /// out, its lift (or its cancel, if it is short enough to tap) to go before the frame.
    /// Before the frame, because a recognizer holding two touches fails when a third begins.
    func diagonalThumb(before frame: Frame, table: inout ContactTable, palms: PalmStage) -> Touch? {
        guard isTouchpad, settings.thumbDiagonalWidth > 0, bands.height >= Self.detectionMinimumHeight,
            settings.enables(.diagonalThumb)
        else { return nil }
        var landing = 0
        for touch in frame.touches where touch.phase == .began && isLandingFinger(touch, palms: palms) { landing += 1 }
        guard landing > 0, table.fingerCount + landing >= 3 else { return nil }
        var points: [(id: TouchID?, position: PhysicalPoint)] = table.contacts.compactMap {
            $0.value.role == .finger ? ($0.key, $0.value.delivered) : nil
        }
        for touch in frame.touches where touch.phase == .began && isLandingFinger(touch, palms: palms) {
            points.append((nil, touch.position))
        }
        points.sort { $0.position.y > $1.position.y }
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
    private func isLandingFinger(_ touch: Touch, palms: PalmStage) -> Bool {
        palms.palmReason(touch) == nil && !palms.beginsPressing(touch) && !bands.inEdgeBand(touch.position)
            && !bands.inThumbBand(touch.position)
    }
}
