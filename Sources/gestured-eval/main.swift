import GesturedCLISupport
import GesturedSystem

// Keep main to "parse, run, exit" (STYLE.md B8).
let code = EvaluateCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: Files.processEnvironment())
exitProcess(code.rawValue)
