import GesturedCLISupport
import GesturedConfig
import GesturedSystem

/// `gesturectl check-config [FILE]`: every diagnostic with file:line:column; exit 78 when
/// any is an error. Reads the files the daemon reads, in its order (`ConfigLayering`):
/// without FILE the vendor defaults, `/etc/gestured/gestured.conf` and its drop-ins; with
/// FILE, FILE and the `conf.d` drop-ins beside it.
enum CheckConfig {
    static func run(path: String?) -> ExitCode {
        let layers = ConfigLayering.files(mainPath: path, exists: Files.exists, dropIns: { Files.listDirectory($0, suffix: ".conf") })
        var sources: [ConfigSource] = []
        do {
            for file in layers.files {
                sources.append(ConfigSource(name: file, contents: try Files.readText(path: file)))
            }
        } catch {
            writeStandardError("gesturectl: \(error.userFacingDescription)\n")
            return .noInput
        }
        if layers.files.isEmpty {
            writeStandardOutput("no configuration files: gestured uses its built-in defaults (gestured --check-config checks them)\n")
            return .success
        }
        if layers.builtInVendor {
            // The daemon starts from the copy built into it; `gestured --check-config` checks
            // that layer too.
            writeStandardError("gesturectl: no \(ConfigPaths.vendor); checking the files above the vendor defaults built into gestured\n")
        }
        let result = Configuration.parse(sources)
        for diagnostic in result.diagnostics { writeStandardError(diagnostic.rendered + "\n") }
        if result.hasErrors { return .config }
        if result.configuration.gestures.isEmpty {
            writeStandardError("gesturectl: warning: \(layers.files.joined(separator: ", ")): no gestures are configured (no [Gesture NAME] section): the daemon would recognize nothing\n")
        }
        writeStandardOutput("\(layers.files.joined(separator: ", ")): OK, \(result.configuration.gestures.count) gestures, \(result.configuration.deviceRules.count) device rules\n")
        return .success
    }
}
