import GestureEngine
import GesturedCLISupport
import GesturedSystem
import Synchronization

/// `gesturectl record NODE`: the device's description and its events as evemu text, the
/// attachment a bug report needs (libinput's rule). Works without the daemon.
enum Recorder {
    static func record(node: String, duration: Double?, frames: Int?) -> ExitCode {
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node)
        } catch {
            writeStandardError("gesturectl: \(error.userFacingDescription)\n")
            return error.errno == .noSuchFileOrDirectory ? .noInput : .failure
        }
        defer { device.close() }
        writeStandardOutput(EvemuWriter.description(device.description))
        // The recording starts from the kernel's state, as the daemon seeds its sessions, so
        // the replay sees what the daemon would have seen: first every slot's last values
        // (the kernel sends only changed values, so a finger landing in its slot's last
        // column reports no X; without them a replay places it at 0), in the resync shape
        // that the kernel ignores when evemu-play writes it and gestured's replay reads as
        // state (``SlotSeed``); then fingers already down, as one frame of their state.
        let openedAt = Timestamp(microseconds: MonotonicClock.nowMicroseconds())
        let seed = SlotSeed.events(device.slotValueEvents(at: openedAt), at: openedAt)
        if !seed.isEmpty {
            writeStandardOutput("# the slots' last values when the recording began (a resync: SYN_DROPPED, values, SYN_REPORT)\n")
            writeStandardOutput(EvemuWriter.events(seed))
        }
        let initial = device.initialStateEvents(at: openedAt)
        if !initial.isEmpty { writeStandardOutput(EvemuWriter.events(initial)) }
        let signals = SignalSource([.interrupt, .terminate])
        defer { signals.cancel() }
        let stop = StopFlag()
        let stream = signals.signals
        let watcher = Task {
            for await _ in stream {
                stop.set()
                break
            }
        }
        defer { watcher.cancel() }
        let deadline = duration.map { MonotonicClock.nowMicroseconds() + Int64($0 * 1_000_000) }
        var frameCount = 0
        while !stop.isSet {
            if let deadline, MonotonicClock.nowMicroseconds() >= deadline { break }
            if let frames, frameCount >= frames { break }
            // Wake at least every 100 ms to notice a signal or the deadline.
            guard waitReadable(fileDescriptor: device.fileDescriptor, timeoutMilliseconds: 100) else { continue }
            let events: [RawEvent]
            var removed = false
            do {
                switch try device.readAvailable() {
                case .events(let e): events = e
                case .removed(let e):
                    events = e
                    removed = true
                }
            } catch {
                writeStandardError("gesturectl: \(error.userFacingDescription)\n")
                return .failure
            }
            if !events.isEmpty { writeStandardOutput(EvemuWriter.events(events)) }
            frameCount += events.count { $0.usage == .synReport }
            if removed {
                writeStandardError("gesturectl: \(node) was removed; recording ends\n")
                break
            }
        }
        return .success
    }
}

/// A flag set from the signal task and read by the recording loop.
final class StopFlag: Sendable {
    private let storage = Mutex(false)
    func set() { storage.withLock { $0 = true } }
    var isSet: Bool { storage.withLock { $0 } }
}
