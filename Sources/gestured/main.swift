import GesturedCLISupport
import GesturedDaemon
import GesturedSystem

// Keep main to "parse, bootstrap, run" (STYLE.md B8): handlers are created inside the daemon.
let code = await GesturedCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: Files.processEnvironment())
exitProcess(code.rawValue)
