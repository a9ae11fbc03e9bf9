import GestureEngine
import GesturedCLISupport
import GesturedClient
import GesturedConfig
import GesturedProtocol
import GesturedSystem

/// `gesturectl gestures [FILE]`: the names of the configured gestures, one a line, in
/// configuration order — the names `listen --gesture` and `subscribe` accept. Shell
/// completions call it. Without FILE it reads the configuration the daemon on `--socket`
/// says it runs (`status`'s `config_path`), or, with no daemon answering, the files the
/// daemon would read (``ConfigLayering``). With no vendor file installed, the daemon's vendor
/// layer is the copy built into it; the same file is built into gesturectl and read first, so a
/// daemon on built-in defaults lists its default gestures. A configuration with errors prints
/// nothing and exits 78 (`check-config` says what is wrong).
enum ListGestures {
    static func run(path: String?, socket: String) -> ExitCode {
        let mainPath = path ?? daemonConfigPath(socket: socket)
        let layers = ConfigLayering.files(mainPath: mainPath, exists: Files.exists, dropIns: { Files.listDirectory($0, suffix: ".conf") })
        var sources: [ConfigSource] = []
        if layers.builtInVendor {
            sources.append(ConfigSource(name: "<built-in gestured.conf>", contents: builtInDefaults))
        }
        do {
            for file in layers.files {
                sources.append(ConfigSource(name: file, contents: try Files.readText(path: file)))
            }
        } catch {
            writeStandardError("gesturectl: \(error.userFacingDescription)\n")
            return .noInput
        }
        let result = Configuration.parse(sources)
        if result.hasErrors {
            writeStandardError("gesturectl: the configuration has errors; 'gesturectl check-config' lists them\n")
            return .config
        }
        var text = ""
        for gesture in result.configuration.gestures where gesture.isEnabled { text += gesture.name + "\n" }
        writeStandardOutput(text)
        return .success
    }

    /// config/gestured.conf as built into this binary: the daemon's vendor layer when
    /// ``ConfigPaths/vendor`` is not installed.
    static let builtInDefaults = String(decoding: PackageResources.gestured_conf, as: UTF8.self)

    /// The main configuration file of the daemon answering on `socket`, when one answers
    /// within a second and runs from a file other than the default one (whose layering is
    /// the default's: nil).
    static func daemonConfigPath(socket: String) -> String? {
        guard Files.exists(socket), let client = try? IPCClient(path: socket, clientName: "gesturectl-gestures") else { return nil }
        defer { client.close() }
        guard case .status(let status)? = try? client.request(.status, timeoutMilliseconds: 1000),
            let path = status.configPath, path != ConfigPaths.main
        else { return nil }
        return path
    }
}
