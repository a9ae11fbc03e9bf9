/// Palms at the sides and the top of a touchpad (libinput's `tp_palm_detect_edge`): a
/// contact that begins in a band is held back; it becomes a finger if it leaves the band
/// toward the middle within ``TouchFilterSettings/edgeReleaseTime`` (or, on a pad measuring
/// contact size, stayed finger-sized), or if it landed together with a close partner (two
/// fingers scrolling from the edge); otherwise it is a palm, ``PalmReason/edge``.
struct EdgeBandStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let bands: FilterBands
    let isTouchpad: Bool

    init(settings: TouchFilterSettings, bands: FilterBands, isTouchpad: Bool) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.bands = bands
        self.isTouchpad = isTouchpad
    }

    mutating func reset() {}

    /// A new contact there is held back.
    func holdsBack(_ touch: Touch) -> Bool {
        isTouchpad && bands.inEdgeBand(touch.position) && settings.enables(.edgeBand)
    }

    /// What becomes of a held edge contact in a frame: nil while it stays held (or turns
    /// palm), its delivered beginning when it turns finger.
    func moved(
        _ touch: Touch, _ contact: inout FilterContact, at now: Timestamp, table: ContactTable, palms: PalmStage,
        jitter: JitterStage
    ) -> Touch? {
        if let reason = palms.palmReason(touch) {
            contact.makePalm(reason)
            return nil
        }
        if settings.enables(.edgePartner), hasEdgePartner(touch.id, contact, table: table) {
            return jitter.release(touch, &contact, at: now)
        }
        guard !bands.inEdgeBand(touch.position) else { return nil }
        // Out toward the middle in time: a finger. Too late: a palm that wandered — unless the
        // pad measures contact size and this one stayed finger-sized (a finger resting at the
        // edge before it moves).
        if now - contact.startTime <= settings.edgeReleaseTime
            || (settings.enables(.edgeFingerMajor) && (contact.maximumMajor ?? .infinity) < settings.edgeFingerMajor)
        {
            return jitter.release(touch, &contact, at: now)
        }
        contact.makePalm(.edge)
        return nil
    }

    /// A contact held in an edge band that landed together with another finger close to it
    /// (in the band too, or just outside it) is one of two fingers starting a scroll from the
    /// edge ("scroll from right to left", "scroll down" from the top edge); palms land one at
    /// a time, or on opposite sides.
    private func hasEdgePartner(_ id: TouchID, _ contact: FilterContact, table: ContactTable) -> Bool {
        for (otherID, other) in table.contacts where otherID != id {
            guard other.role == .edgeCandidate || other.role == .finger else { continue }
            guard abs(other.startTime - contact.startTime) <= settings.edgeReleaseTime,
                distance(other.start, contact.start) <= settings.edgePairDistance
            else { continue }
            return true
        }
        return false
    }

    /// A finger ending that landed together with a contact still held in an edge band (not
    /// its partner): the hand landing, a palm's heel at the edge and its fingers' side in
    /// the middle — not a tap, whose partner a one-finger tap would not have.
    func isHandLanding(_ contact: FilterContact, table: ContactTable) -> Bool {
        isTouchpad && contact.role == .finger && settings.enables(.handLanding)
            && table.contacts.values.contains(where: {
                $0.role == .edgeCandidate && abs($0.startTime - contact.startTime) <= settings.edgeReleaseTime
            })
    }

    /// Held in the band past the release time when it lifted: a palm by the edge rule, to
    /// be remembered as one (a palm resting at the edge is re-reported as short contacts).
    func liftedAsPalm(_ contact: FilterContact, at now: Timestamp) -> Bool {
        contact.role == .edgeCandidate && now - contact.startTime > settings.edgeReleaseTime
    }
}
