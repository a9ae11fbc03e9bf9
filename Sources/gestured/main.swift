import GesturedCLISupport
import GesturedDaemon
import GesturedSystem

// Keep main to "parse, bootstrap, run" (STYLE.md B8): handlers are created inside the daemon.
// No top-level `await`: the command runs on an event loop of its own while the main thread
// sleeps, so nothing starts libdispatch's worker pool (DESIGN.md "Daemon, event loop and socket protocol" › "One event loop").
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = Files.processEnvironment()
let code = EventLoop.runMain(name: "gestured-main") {
    await GesturedCommand.run(arguments: arguments, environment: environment)
}
exitProcess(code.rawValue)
