import GesturedCLISupport
import GesturedConfig
import GesturedSystem

/// `gesturectl check-config [FILE]`: every diagnostic with file:line:column; exit 78 when
/// any is an error. Reads the same files the daemon reads (main file + conf.d drop-ins).
enum CheckConfig {
    static func run(path: String?) -> ExitCode {
        let mainPath = path ?? "/etc/gestured/gestured.conf"
        var sources: [ConfigSource] = []
        do {
            sources.append(ConfigSource(name: mainPath, contents: try Files.readText(path: mainPath)))
            let slash = mainPath.lastIndex(of: "/").map { String(mainPath[..<$0]) } ?? "."
            for dropIn in Files.listDirectory(slash + "/conf.d", suffix: ".conf") {
                sources.append(ConfigSource(name: dropIn, contents: try Files.readText(path: dropIn)))
            }
        } catch {
            writeStandardError("gesturectl: \(error.userFacingDescription)\n")
            return .noInput
        }
        let result = Configuration.parse(sources)
        for diagnostic in result.diagnostics { writeStandardError(diagnostic.rendered + "\n") }
        if result.hasErrors { return .config }
        writeStandardOutput("\(mainPath): OK, \(result.configuration.gestures.count) gestures, \(result.configuration.deviceRules.count) device rules\n")
        return .success
    }
}
