// swift-tools-version:6.2
import PackageDescription

/// One set of settings for every first-party target (STYLE.md B2): Swift 6 mode,
/// explicit imports, and warnings as errors.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLinuxInput",
            pkgConfig: "libevdev libudev libsystemd",
            providers: [.apt(["libevdev-dev", "libudev-dev", "libmtdev-dev", "libsystemd-dev"])]
        ),
        // The seeded generator (SplitMix64) of the synthesizer, the stress set and the tests:
        // no dependencies, so the protocol tests need not link the engine for it.
        .target(name: "GesturedRandom", swiftSettings: strictSettings),
        // PURE: the Swift standard library only (and GesturedRandom, itself stdlib only).
        // libm is linked explicitly: `Double.rounded()` and friends lower to libm calls, and no
        // module of the engine imports Glibc to pull it in.
        .target(
            name: "GestureEngine", dependencies: ["GesturedRandom"],
            swiftSettings: strictSettings, linkerSettings: [.linkedLibrary("m")]),
        // Optimized in debug builds too: its JSON reader and writer are the project's own
        // (no FoundationEssentials, DESIGN.md "Targets and boundaries"), and unoptimized
        // they made the socket tests' reading clients several times slower than Foundation's
        // prebuilt, optimized JSONDecoder was.
        .target(
            name: "GesturedProtocol",
            swiftSettings: strictSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(name: "GesturedConfig", dependencies: ["GestureEngine"], swiftSettings: strictSettings),
        .target(name: "GesturedLogging", swiftSettings: strictSettings),
        .target(name: "GesturedCLISupport", swiftSettings: strictSettings),
        // THE ONLY OS DOOR.
        .target(
            name: "GesturedSystem",
            dependencies: ["CLinuxInput", "GestureEngine", "GesturedLogging"],
            swiftSettings: strictSettings
        ),
        // The blocking socket client shared by gesturectl, the demo and the tests.
        .target(
            name: "GesturedClient",
            dependencies: ["GesturedProtocol", "GesturedSystem"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GesturedDaemon",
            dependencies: [
                "GestureEngine", "GesturedProtocol", "GesturedConfig", "GesturedLogging", "GesturedSystem", "GesturedClient",
                "GesturedCLISupport",
            ],
            // The built-in defaults, embedded as bytes (links to config/, see EmbeddedResources.swift).
            resources: [.embedInCode("Resources/gestured.conf"), .embedInCode("Resources/quirks")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GesturedTestSupport",
            dependencies: ["GestureEngine", "GesturedProtocol"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gestured",
            dependencies: ["GesturedDaemon", "GesturedCLISupport", "GesturedLogging"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gesturectl",
            dependencies: [
                "GesturedProtocol", "GesturedSystem", "GestureEngine", "GesturedConfig", "GesturedCLISupport",
                "GesturedClient",
            ],
            // The daemon's built-in defaults (a link to config/gestured.conf): `gestures` lists
            // them when no vendor file is installed, as the daemon then runs on them.
            resources: [.embedInCode("Resources/gestured.conf")],
            swiftSettings: strictSettings
        ),
        // The recognition-quality evaluation over the shared corpus (docs/evaluation.md).
        .executableTarget(
            name: "gestured-eval",
            dependencies: [
                "GestureEngine", "GesturedConfig", "GesturedDaemon", "GesturedSystem", "GesturedCLISupport", "GesturedRandom",
            ],
            swiftSettings: strictSettings
        ),
        // Benchmarks (docs/benchmarks.md); its C target (malloc counting, a nanosecond clock) is linked into it only.
        .target(name: "CBenchSupport"),
        .executableTarget(
            name: "gestured-bench",
            dependencies: [
                "CBenchSupport", "GestureEngine", "GesturedConfig", "GesturedDaemon", "GesturedProtocol",
                "GesturedSystem", "GesturedClient", "GesturedLogging",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "GesturedRandomTests", dependencies: ["GesturedRandom"], swiftSettings: strictSettings),
        .testTarget(
            name: "GestureEngineTests",
            dependencies: ["GestureEngine", "GesturedTestSupport", "GesturedRandom"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GesturedProtocolTests",
            dependencies: ["GesturedProtocol", "GesturedTestSupport", "GesturedRandom"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GesturedConfigTests",
            dependencies: ["GesturedConfig", "GesturedTestSupport", "GesturedRandom"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GesturedSystemTests",
            dependencies: ["GesturedSystem", "GesturedTestSupport", "GesturedRandom"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GesturedDaemonTests",
            dependencies: ["GesturedDaemon", "GesturedClient", "GesturedTestSupport", "GesturedRandom", "gestured-eval"],
            // read from the checkout by the quality test, not bundled
            exclude: ["quality-baseline.txt", "stress-baseline.txt", "stress-baseline-evaluation.txt", "logind-mock.py"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["GesturedTestSupport", "GesturedProtocol", "GesturedClient"],
            // device descriptions and guest scripts of the kernel tier, read
            // from the checkout by scripts/vm/run.sh, not bundled
            exclude: ["Devices", "Guest"],
            swiftSettings: strictSettings
        ),
    ]
)
