import GesturedSystem
import Glibc

// gestured-bench: prints performance figures (docs/benchmarks.md). Nothing here is asserted;
// build and run in release mode: swift build -c release --product gestured-bench.

let usage = """
    usage: gestured-bench engine [--repetitions N] [--runs N] [--fingers 1,2,5,10]
           gestured-bench corpus [--rounds N]
           gestured-bench daemon [--clients N] [--devices N] [--idle-seconds S]
                                 [--gestured PATH] [--alloc-sites MIN] [--bare-send 0|1] [--touchpad | --recording FILE]
           gestured-bench soak [--churn N] [--steady N] [--gestured PATH]
           gestured-bench rss [--gestured PATH[,PATH...]] [--settle-seconds S]
           gestured-bench rss --pid PID [--label TEXT]
    """

let command = CommandLine.arguments.dropFirst().first ?? ""
/// The value of `--name N` in the arguments, or `fallback`.
func option(_ name: String, _ fallback: Int) -> Int {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else {
        return fallback
    }
    return v
}

func stringOption(_ name: String) -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

switch command {
case "engine":
    var benchmark = EngineBenchmark(repetitions: option("--repetitions", 12))
    benchmark.runs = option("--runs", 3)
    if let fingers = stringOption("--fingers") { benchmark.fingerCounts = fingers.split(separator: ",").compactMap { Int($0) } }
    benchmark.run()
case "corpus":
    CorpusBenchmark(rounds: option("--rounds", 3)).run()
case "daemon":
    // On a loop of its own, as gestured's main does: no top-level await, so the main thread
    // never parks in dispatch_main (whose sigsuspend valgrind cannot run:
    // scripts/bench-instructions.sh).
    var benchmark = DaemonBenchmark(
        clients: option("--clients", 200),
        devices: option("--devices", 4),
        idleSeconds: option("--idle-seconds", 10),
        gesturedPath: stringOption("--gestured")
    )
    benchmark.allocationSites = option("--alloc-sites", 0)
    benchmark.bareSend = option("--bare-send", 1) != 0
    benchmark.touchpad = CommandLine.arguments.contains("--touchpad")
    benchmark.recordingPath = stringOption("--recording")
    let configured = benchmark
    _ = EventLoop.runMain(name: "bench-main") {
        await configured.run()
        return 0
    }
case "soak":
    exitProcess(
        SocketSoak(churnConnections: option("--churn", 1000), steadyClients: option("--steady", 8), gesturedPath: stringOption("--gestured")).run()
    )
case "rss":
    let paths = stringOption("--gestured").map { $0.split(separator: ",").map(String.init) } ?? [DaemonBenchmark.siblingGestured()].compactMap { $0 }
    MemoryBenchmark(
        gesturedPaths: paths,
        pid: stringOption("--pid").flatMap { pid_t($0) },
        label: stringOption("--label") ?? "rss",
        settleSeconds: option("--settle-seconds", 2)
    ).run()
default:
    writeStandardError("gestured-bench: unknown command '\(command)'\n" + usage + "\n")
    exitProcess(64)
}
