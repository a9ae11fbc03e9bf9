import Foundation
import Testing

extension Tag {
    /// Tests that boot the kernel tier's QEMU guest (`scripts/vm/run.sh`) and
    /// drive real evdev/uinput devices there.
    @Tag static var kernel: Self
}

/// The kernel tier's guest, seen from the host: runs a script inside it through
/// `scripts/vm/run.sh` and hands back what the script printed.
enum KernelTier {
    /// The checkout: the nearest directory above this file with a `Package.swift`.
    static let packageRoot: URL = {
        var directory = URL(filePath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// Whether the guest can run: `scripts/vm/setup.sh` has run (installing
    /// QEMU and fetching the kernel when it can) and `qemu-system-x86_64` is
    /// installed. Only a missing QEMU makes this false; a setup that fails
    /// with QEMU present makes the tests fail instead, with the reason.
    static let isAvailable: Bool = {
        let setup = Process()
        setup.executableURL = packageRoot.appending(path: "scripts/vm/setup.sh")
        setup.standardInput = FileHandle.nullDevice
        do {
            try setup.run()
            setup.waitUntilExit()
        } catch {
            // reported by the tests themselves when QEMU is there after all
        }
        return executableOnPath("qemu-system-x86_64")
    }()

    /// The release of the guest's kernel (`kernel.version` in setup.sh's
    /// cache, `$GESTURED_VM_DIR` or /var/cache/gestured-vm), once set up.
    static var kernelRelease: String? {
        let cache = ProcessInfo.processInfo.environment["GESTURED_VM_DIR"] ?? "/var/cache/gestured-vm"
        let text = try? String(contentsOfFile: "\(cache)/kernel.version", encoding: .utf8)
        return text?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `gestured` executable of this build: beside the test bundle, which
    /// SwiftPM builds into the same directory.
    static var gesturedExecutable: URL {
        let bundle = URL(filePath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        let sibling = bundle.deletingLastPathComponent().appending(path: "gestured")
        if FileManager.default.isExecutableFile(atPath: sibling.path) {
            return sibling
        }
        return packageRoot.appending(path: ".build/debug/gestured")
    }

    /// The build users run, for the suites that measure whether the daemon keeps up under
    /// load (``DeviceFaults``): `.build/release/gestured` and its `gesturectl`, when both were
    /// built after this build's debug `gestured` (the README's test command builds them
    /// right after the tests); else, a release build being older than the code under test,
    /// the debug one. Under the emulator the debug daemon takes several times the release
    /// one's CPU per frame, and on a slow host it fell far enough behind the fault suite's
    /// steady 240 Hz touchpad for its evdev buffer to overflow (DESIGN.md "Testing tiers").
    /// Decided once, so the suite's boot and its messages name the same binary.
    static let shippedGesturedExecutable: URL = {
        let debug = gesturedExecutable
        let release = packageRoot.appending(path: ".build/release")
        func modified(_ url: URL) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        }
        guard let debugBuilt = modified(debug),
            let gestured = modified(release.appending(path: "gestured")), gestured >= debugBuilt,
            let gesturectl = modified(release.appending(path: "gesturectl")), gesturectl >= debugBuilt
        else { return debug }
        return release.appending(path: "gestured")
    }()

    /// Where the runs of `script` keep their files: `.build/kernel-tier/<name>/`
    /// (the guest's `stdout`, `stderr`, `exit-status` and `console.log`).
    static func outputDirectory(for script: String) -> URL {
        let name = URL(filePath: script).deletingPathExtension().lastPathComponent
        return packageRoot.appending(path: ".build/kernel-tier/\(name)")
    }

    /// Boots the guest and runs `script` (a path relative to the checkout) in it.
    ///
    /// - Parameters:
    ///   - timeout: the whole boot's bound, in seconds; past it the guest is
    ///     stopped and the run's exit status is 124.
    /// - Returns: the script's output and exit status, once QEMU has exited.
    ///   - environment: added to the guest script's environment (only
    ///     `GESTURED_*` names reach the guest).
    static func run(
        _ script: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        timeout: Int = 90
    ) async throws -> GuestRun {
        let directory = outputDirectory(for: script)
        let guestDirectory = directory.appending(path: "guest")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: guestDirectory, withIntermediateDirectories: true)

        let hostStdout = directory.appending(path: "run.stdout")
        let hostStderr = directory.appending(path: "run.stderr")
        try Data().write(to: hostStdout)
        try Data().write(to: hostStderr)
        let stdout = try FileHandle(forWritingTo: hostStdout)
        let stderr = try FileHandle(forWritingTo: hostStderr)
        defer {
            try? stdout.close()
            try? stderr.close()
        }

        let process = Process()
        process.executableURL = packageRoot.appending(path: "scripts/vm/run.sh")
        process.arguments = ["--timeout", String(timeout), "--out", guestDirectory.path, script] + arguments
        process.currentDirectoryURL = packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        let status = try await exitStatus(of: process)

        return GuestRun(
            script: script,
            exitStatus: status,
            stdout: try String(contentsOf: hostStdout, encoding: .utf8),
            stderr: try String(contentsOf: hostStderr, encoding: .utf8),
            directory: directory
        )
    }

    /// Starts `process` and suspends until it exits; no polling, no sleeping.
    private static func exitStatus(of process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationStatus)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    private static func executableOnPath(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)")
        }
    }
}

/// What one boot of the guest produced.
struct GuestRun: Sendable {
    /// The guest script, relative to the checkout.
    var script: String
    /// The script's exit status; 124 when the guest did not finish in time.
    var exitStatus: Int32
    /// The script's standard output.
    var stdout: String
    /// The script's standard error, then `run.sh`'s own messages.
    var stderr: String
    /// The run's files (`guest/console.log` is the serial console).
    var directory: URL

    /// The script's output lines split into words, for facts printed as
    /// `<subject> <key> <values...>`.
    var facts: [[String]] {
        stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// The values of every `<subject> <key> ...` line, in order.
    func values(_ subject: String, _ key: String) -> [[String]] {
        facts.filter { $0.count >= 2 && $0[0] == subject && $0[1] == key }.map { Array($0.dropFirst(2)) }
    }

    /// The rest of every `<subject> <key> <rest>` line, verbatim, in order.
    func lines(_ subject: String, _ key: String) -> [String] {
        let prefix = "\(subject) \(key) "
        return stdout.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The single integer of the line `<subject> <key> <n>`, or nil.
    func integer(_ subject: String, _ key: String) -> Int? {
        values(subject, key).first.flatMap { $0.first }.flatMap { Int($0) }
    }

    /// A summary for failure messages: status, where the files are, the tail
    /// of stderr and of the console.
    var diagnosis: Comment {
        let console = (try? String(contentsOf: directory.appending(path: "guest/console.log"), encoding: .utf8)) ?? ""
        let tail = { (text: String) in text.split(separator: "\n").suffix(15).joined(separator: "\n") }
        return """
            \(script) exited with \(exitStatus); files in \(directory.path)
            --- stderr (last lines):
            \(tail(stderr))
            --- console (last lines):
            \(tail(console))
            """
    }
}
