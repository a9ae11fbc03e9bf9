import Foundation
import Testing

/// The kernel tier (STYLE.md B13, tier 7): a Debian kernel under QEMU with
/// evdev, uinput and udev, driven by `scripts/vm/run.sh`. The boots run one
/// after another: they are timing-sensitive (libinput uses the kernel's
/// timestamps), and the build machines have two cores.
@Suite(
    "Kernel tier (QEMU guest)",
    .tags(.kernel),
    .serialized,
    // each boot has its own timeout (run.sh --timeout); this bounds a test
    // that would wait on something else (the device-fault boot takes 12 to 26
    // minutes, by how fast the emulator runs on the machine of the day)
    .timeLimit(.minutes(45)),
    // The only reason to skip: QEMU is missing and setup could not install it
    // (not root, no network). Everything else is a failure.
    .enabled(if: KernelTier.isAvailable, "qemu-system-x86_64 is not installed and scripts/vm/setup.sh could not install it")
)
struct KernelTierTests {
    @Suite("The harness")
    struct Harness {
        @Test("a guest script's output, arguments and exit status come back to the host")
        func outputAndStatusComeBack() async throws {
            let run = try await KernelTier.run(
                "Tests/EndToEndTests/Guest/harness-echo.sh",
                arguments: ["3", "two words", "it's"],
                timeout: 60
            )
            #expect(run.exitStatus == 3, run.diagnosis)
            let arguments = run.stdout.split(separator: "\n").filter { $0.hasPrefix("argument ") }
            #expect(arguments == ["argument [3]", "argument [two words]", "argument [it's]"], run.diagnosis)
            // the guest runs the kernel setup.sh fetched, not the host's
            let release = try #require(KernelTier.kernelRelease, "setup.sh left no kernel.version")
            #expect(run.values("kernel", release).count == 1, run.diagnosis)
            #expect(run.values("uinput", "/dev/uinput").count == 1, run.diagnosis)
            #expect(run.integer("module", "evdev") == 1, run.diagnosis)
            #expect(run.values("repository", KernelTier.packageRoot.path).count == 1, run.diagnosis)
            #expect(run.stderr.contains("to stderr"), run.diagnosis)
        }

        @Test("a guest that does not finish is stopped at the timeout with status 124")
        func hangingGuestTimesOut() async throws {
            let run = try await KernelTier.run("Tests/EndToEndTests/Guest/harness-hang.sh", timeout: 8)
            #expect(run.exitStatus == 124, run.diagnosis)
            #expect(run.stdout == "waiting forever\n", run.diagnosis)
            #expect(run.stderr.contains("did not finish within 8 s"), run.diagnosis)
        }
    }
}
