/// Palms at the sides and the top of a touchpad (libinput's `tp_palm_detect_edge`): a
/// contact that begins in a band is held back; it becomes a finger if it leaves the band
/// toward the middle within ``TouchFilterSettings/edgeReleaseTime`` (or, on a pad measuring
/// contact size, stayed finger-sized), or if it landed together with a close partner (two
/// fingers scrolling from the edge); otherwise it is a palm, ``PalmReason/edge``.
/// Touchpad chain only.
struct EdgeBandStage: TouchFilterStage, FilterSettingsHolder {
    let sharedSettings: SharedFilterSettings
    let bands: FilterBands

    init(settings: TouchFilterSettings, bands: FilterBands) {
        self.sharedSettings = SharedFilterSettings(settings)
        self.bands = bands
    }

    func process(_ step: inout ContactStep, in frame: inout FilterFrame) {
        guard step.state == .judging else { return }
        switch step.touch.phase {
        case .began:
            if step.contact.role == .finger && holdsBack(step.touch) { step.contact.role = .edgeCandidate }
        case .moved, .stationary:
            guard step.contact.role == .edgeCandidate else { return }
            moved(&step, at: frame.now, table: frame.table)
        case .ended, .cancelled:
            // Held in the band past the release time: a palm by the edge rule, to be
            // remembered as one (a palm resting at the edge is re-reported as short contacts).
            if step.contact.role == .edgeCandidate && frame.now - step.contact.startTime > settings.edgeReleaseTime {
                frame.table.rememberPalm(step.touch.position, at: frame.now)
            }
        }
    }

    /// A new contact there is held back.
    func holdsBack(_ touch: Touch) -> Bool {
        bands.inEdgeBand(touch.position) && settings.enables(.edgeBand)
    }

    /// What becomes of a held edge contact (not a palm by what it reports) in a frame: it
    /// stays held, turns finger (``ContactStep/State/releasing``) or turns palm.
    private func moved(_ step: inout ContactStep, at now: Timestamp, table: ContactTable) {
        let touch = step.touch
        if settings.enables(.edgePartner), hasEdgePartner(touch.id, step.contact, table: table) {
            step.state = .releasing
            return
        }
        guard !bands.inEdgeBand(touch.position) else { return }
        // Out toward the middle in time: a finger. Too late: a palm that wandered — unless the
        // pad measures contact size and this one stayed finger-sized (a finger resting at the
        // edge before it moves).
        if now - step.contact.startTime <= settings.edgeReleaseTime
            || (settings.enables(.edgeFingerMajor) && (step.contact.maximumMajor ?? .infinity) < settings.edgeFingerMajor)
        {
            step.state = .releasing
            return
        }
        step.contact.makePalm(.edge)
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
}
