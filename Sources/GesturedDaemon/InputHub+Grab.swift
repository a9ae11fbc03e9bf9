import GestureEngine
import GesturedConfig
import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// `Grab=yes` (issue 13): the device is taken with `EVIOCGRAB` and the compositor reads a
/// uinput clone that gets only the touches no gesture claims (``CloneRelay``). The grab
/// starts and ends only while no finger is down, so that the compositor never sees a touch
/// begin on one device and end on the other.
extension InputHub {
    /// Starts or ends the grab of `session` as its `Grab=` says, if no finger is down now;
    /// otherwise a later read tries again (`announce`: say so in the log).
    func updateGrab(_ session: DeviceSession, announce: Bool = false) {
        if session.wantsGrab, session.relay == nil, !session.grabRefused {
            startGrab(session, announce: announce)
        } else if !session.wantsGrab, let relay = session.relay {
            if !session.device.hasContactDown, !relay.planner.hasTouchDown {
                endGrab(session, reason: "Grab= turned off")
            } else if announce {
                logger.notice("The grab ends once no finger is down", [("device.node", session.node)])
            }
        }
    }

    private func startGrab(_ session: DeviceSession, announce: Bool) {
        let node = session.node
        guard session.kind == .touchscreen else {
            session.grabRefused = true
            logger.warning(
                "Grab=yes is for touchscreens only; not grabbing this touchpad (libinput keeps reading it)",
                [("device.node", node), ("device.usage", session.kind.rawValue)])
            return
        }
        guard !session.device.usesMtdev else {
            session.grabRefused = true
            logger.warning(
                "Grab=yes needs a multitouch protocol-B device; not grabbing this protocol-A one", [("device.node", node)])
            return
        }
        guard !session.device.hasContactDown else {
            if announce { logger.notice("The grab waits until no finger is down", [("device.node", node)]) }
            return
        }
        let clone: UInputClone
        do {
            clone = try UInputClone(of: session.device)
        } catch {
            session.grabRefused = true
            logger.error(
                "Failed to create the uinput clone, using the device without grab",
                [("device.node", node), ("error", error.userFacingDescription)])
            return
        }
        do {
            try session.device.grab()
        } catch {
            clone.destroy()
            session.grabRefused = true
            let holders = NodeHolders.processes(opening: node)
            let held = holders.isEmpty ? "unknown" : holders.map(\.description).joined(separator: ", ")
            logger.warning(
                "Failed to grab the device, using it without grab (another process holds it)",
                [("device.node", node), ("error", error.userFacingDescription), ("open_by", held)])
            return
        }
        let relay = CloneRelay(clone: clone, device: session.device.description, configuration: session.pipeline.engine.configuration)
        relay.seed(session.device.slotValueEvents(at: Timestamp(microseconds: MonotonicClock.nowMicroseconds())))
        session.relay = relay
        logger.notice(
            "Device grabbed; applications read its clone",
            [("device.node", node), ("clone.node", clone.devnode ?? "?"), ("clone.phys", clone.phys)])
    }

    /// Lifts every touch in the clone, removes it and gives the device back.
    func endGrab(_ session: DeviceSession, reason: String) {
        guard let relay = session.relay else { return }
        session.relay = nil
        if let error = relay.close() {
            logger.warning("Failed to lift the clone's touches", [("device.node", session.node), ("error", error.description)])
        }
        session.device.ungrab()
        logger.notice("Grab released", [("device.node", session.node), ("reason", reason)])
    }

    /// Whether `node` is the clone of a device this hub grabbed (the phys test's back-up).
    func isOwnClone(_ node: String) -> Bool {
        deviceSessions.contains { $0.relay?.clone.devnode == node }
    }

    /// Writes what the clone gets of outputs that came from no source frame.
    func forwardToClone(_ outputs: [EngineOutput], from session: DeviceSession) {
        guard let relay = session.relay else { return }
        if let error = relay.forward(outputs) { logClone(error, session) }
        // A held lift released by a timer may be what a pending change of Grab= waits for.
        if !session.wantsGrab { updateGrab(session) }
    }

    /// After a read fed through the clone: says when events were lost.
    func noteCloneRead(_ session: DeviceSession) {
        guard let relay = session.relay else { return }
        let unforeseen = relay.takeUnforeseenLandings()
        if unforeseen > 0 {
            logger.debug(
                "A gesture claimed touches on the frame they landed in, after the clone had them; cancelled there",
                [("device.node", session.node), ("touches", String(unforeseen))])
        }
        guard relay.takeDroppedReads() > 0 else { return }
        logger.notice(
            "Events were lost (SYN_DROPPED); the clone's touches are cancelled, fingers still down return when they land again",
            [("device.node", session.node)])
    }

    func logClone(_ error: SystemError, _ session: DeviceSession) {
        logger.error("Failed to write to the uinput clone, stopping it", [("device.node", session.node), ("error", error.description)])
    }
}
