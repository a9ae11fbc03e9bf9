public import GesturedLogging
public import GesturedSystem

/// The daemon's virtual keyboard and pointer, created on first use. A new device is used only
/// once udev has announced it (and ``settleMicroseconds`` more): compositors open input
/// devices when udev announces them, so keys written to a device nobody has open yet would be
/// lost. Without udev (a container) the announcement never comes and the device is used
/// after ``announcementBoundMicroseconds``. Confined to the event loop it is given.
public final class UInputSink: VirtualInputSink, @unchecked Sendable {
    /// After udev's announcement, time for readers to open the device (libinput opens it in
    /// the handler of that same announcement).
    static let settleMicroseconds: Int64 = 200_000
    /// The longest wait for the announcement.
    static let announcementBoundMicroseconds: Int64 = 2_000_000

    private let loop: EventLoop
    private let logger: Logger
    private let devices = VirtualInputDevices()
    /// Callers waiting for a device being announced.
    private var waiting: [VirtualInputDevices.Kind: [(SystemError?) -> Void]] = [:]
    private var ready: Set<VirtualInputDevices.Kind> = []
    private var monitor: UdevMonitor?
    private var monitorWatch: FileWatch?

    public init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    public func prepare(_ kind: VirtualInputDevices.Kind, ready done: @escaping (SystemError?) -> Void) {
        if ready.contains(kind) {
            done(nil)
            return
        }
        if waiting[kind] != nil {
            waiting[kind]?.append(done)
            return
        }
        // The monitor listens before the device exists, so its announcement cannot be missed.
        if monitor == nil {
            do {
                let monitor = try UdevMonitor()
                monitorWatch = try loop.watch(monitor.fileDescriptor) { [weak self] in self?.udevReadable() }
                self.monitor = monitor
            } catch {
                logger.info("No udev monitor for the virtual devices; using them after a fixed wait", [("error", "\(error)")])
            }
        }
        do {
            try devices.create(kind)
        } catch {
            logger.error(
                "Failed to create the virtual \(kind.rawValue), refusing input requests",
                [("error", error.description), ("hint", "the daemon needs read-write access to /dev/uinput (the uinput module loaded)")])
            done(error)
            return
        }
        logger.notice("Created the virtual \(kind.rawValue)", [("device.node", devices.devnode(kind) ?? "?")])
        waiting[kind] = [done]
        loop.run(afterMicroseconds: Self.announcementBoundMicroseconds) { [weak self] in
            guard let self, self.waiting[kind] != nil else { return }
            self.logger.info("udev did not announce the virtual device in time; using it anyway", [("device.node", self.devices.devnode(kind) ?? "?")])
            self.markReady(kind)
        }
    }

    private func udevReadable() {
        guard let monitor else { return }
        while let event = monitor.receive() {
            guard event.action == "add" else { continue }
            for kind in VirtualInputDevices.Kind.allCases where waiting[kind] != nil && devices.devnode(kind) == event.devnode {
                loop.run(afterMicroseconds: Self.settleMicroseconds) { [weak self] in self?.markReady(kind) }
            }
        }
    }

    private func markReady(_ kind: VirtualInputDevices.Kind) {
        guard let callers = waiting.removeValue(forKey: kind) else { return }
        ready.insert(kind)
        if waiting.isEmpty {
            // Not needed once every device in use is announced.
            monitorWatch?.cancel()
            monitorWatch = nil
            monitor = nil
        }
        for caller in callers { caller(nil) }
    }

    public func write(_ kind: VirtualInputDevices.Kind, code: UInt16, isPressed: Bool) throws(SystemError) {
        try devices.write(kind, code: code, isPressed: isPressed)
    }

    /// Removes the devices (the daemon's shutdown).
    public func destroy() {
        devices.destroy()
        ready.removeAll()
    }
}
