public import GestureEngine
public import GesturedConfig
import GesturedSystem

/// The engine setup for one device: its recognizers, and its description with configured
/// overrides applied (`WidthMM=`/`HeightMM=` give a device without resolution real
/// millimetres).
public struct DeviceSetup: Sendable {
    public var configuration: EngineConfiguration
    public var device: DeviceDescription
    /// The touch filter's thresholds (`[TouchFilter]`) with the device's quirks applied.
    public var filterSettings = TouchFilterSettings()
    /// The quirks that matched the device.
    public var quirks = DeviceQuirks()
    /// `Grab=yes`: take the device and feed a uinput clone (``CloneRelay``).
    public var grab = false

    public init(
        configuration: EngineConfiguration, device: DeviceDescription, filterSettings: TouchFilterSettings = TouchFilterSettings(),
        quirks: DeviceQuirks = DeviceQuirks()
    ) {
        self.configuration = configuration
        self.device = device
        self.filterSettings = filterSettings
        self.quirks = quirks
    }
}

/// A configuration that loaded, ready for the daemon.
public struct LoadedConfiguration: Sendable {
    /// The main file, or nil for the built-in defaults.
    public var path: String?
    public var configuration: Configuration
    /// `file:line:column: warning: …` lines.
    public var warnings: [String]
    /// The device database (``ConfigPaths/vendorQuirks`` or the built-in copy, then
    /// ``ConfigPaths/localQuirks``).
    public var quirks = QuirkDatabase()

    public var daemon: DaemonSettings { configuration.daemon }
    public var gestureCount: Int { configuration.gestures.count }
    /// The configured gesture names, in configuration order.
    public var gestureNames: [String] { configuration.gestures.map(\.name) }

    /// Client-side limits and permissions.
    public var ipcSettings: IPCSettings {
        var settings = IPCSettings()
        settings.maxClients = configuration.daemon.maxClients
        settings.outboxSoftLimit = configuration.daemon.clientQueueSoft
        settings.outboxHardLimit = max(configuration.daemon.clientQueueHard, configuration.daemon.clientQueueSoft)
        settings.rawTouchGroup = configuration.daemon.allowRawTouchesForGroup.flatMap { groupID(named: $0) }
        settings.allowInput = configuration.daemon.allowInputForActiveSession
        settings.daemonVersion = GesturedCommand.version
        return settings
    }

    /// Chooses each device's engine configuration; nil for disabled devices and devices no
    /// gesture applies to.
    public var configurator: DeviceConfigurator {
        let configuration = self.configuration
        let database = quirks
        return { device, kind, udevProperties in
            let settings = configuration.deviceSettings(for: device, kind: kind, udevProperties: udevProperties)
            guard !settings.isDisabled else { return nil }
            // A [Device] size first, then a quirk's resolution hint where the axes still
            // report none (quirks match by name, ids and udev properties, never by ranges).
            let sized = settings.applying(to: device)
            let quirks = database.quirks(for: sized, udevProperties: udevProperties)
            let adjusted = quirks.applyingResolution(to: sized)
            let engine = configuration.engineConfiguration(for: adjusted, kind: kind, udevProperties: udevProperties)
            guard !engine.recognizers.isEmpty else { return nil }
            var setup = DeviceSetup(
                configuration: engine, device: adjusted, filterSettings: configuration.touchFilter.applying(quirks), quirks: quirks)
            setup.grab = settings.grab
            return setup
        }
    }
}

/// Why a configuration did not load: every error line, and the main path.
public struct ConfigLoadFailure: Error, Sendable {
    public var path: String
    /// `file:line:column: error: message (hint)` lines, then warnings.
    public var lines: [String]
    /// A file could not be read at all (missing, unreadable): exit 66, not 78.
    public var unreadable = false
}

/// Reads the configuration files (through the OS door) and parses them (pure config code),
/// in gestured.conf(5)'s layering: the vendor defaults (`/usr/share/gestured/gestured.conf`,
/// or the same file embedded in the binary when it is not installed), then
/// `/etc/gestured/gestured.conf`, then `/etc/gestured/conf.d/*.conf` in lexical order.
/// With an explicit path (`--config FILE`) only FILE and the drop-ins in FILE's directory's
/// `conf.d` are read.
public enum ConfigLoader {
    public static func load(mainPath: String?) -> Result<LoadedConfiguration, ConfigLoadFailure> {
        var sources: [ConfigSource] = []
        let layers = ConfigLayering.files(mainPath: mainPath, exists: Files.exists, dropIns: { Files.listDirectory($0, suffix: ".conf") })
        if layers.builtInVendor {
            sources.append(ConfigSource(name: "<built-in gestured.conf>", contents: EmbeddedResources.defaultConfiguration))
        }
        let files = layers.files
        for file in files {
            do {
                sources.append(ConfigSource(name: file, contents: try Files.readText(path: file)))
            } catch {
                return .failure(ConfigLoadFailure(path: file, lines: ["\(file): \(error.userFacingDescription)"], unreadable: true))
            }
        }
        let path = mainPath ?? (Files.exists(ConfigPaths.main) ? ConfigPaths.main : nil)
        let result = Configuration.parse(sources)
        if result.hasErrors {
            return .failure(ConfigLoadFailure(path: path ?? "<built-in>", lines: result.errors.map(\.rendered) + result.warnings.map(\.rendered)))
        }
        var loaded = LoadedConfiguration(path: path, configuration: result.configuration, warnings: result.warnings.map(\.rendered))
        switch loadQuirks() {
        case .success(let database): loaded.quirks = database
        case .failure(let failure): return .failure(failure)
        }
        return .success(loaded)
    }

    /// The quirks files: the vendor directory's (or the built-in copies when it is absent),
    /// then the administrator's, each directory in file-name order.
    public static func loadQuirks(
        vendorDirectory: String = ConfigPaths.vendorQuirks, localDirectory: String = ConfigPaths.localQuirks
    ) -> Result<QuirkDatabase, ConfigLoadFailure> {
        var files: [(name: String, contents: String)] = []
        let vendor = Files.exists(vendorDirectory) ? Files.listDirectory(vendorDirectory, suffix: ".quirks") : []
        if vendor.isEmpty { files += EmbeddedResources.defaultQuirks }
        for file in vendor + Files.listDirectory(localDirectory, suffix: ".quirks") {
            do {
                files.append((file, try Files.readText(path: file)))
            } catch {
                return .failure(ConfigLoadFailure(path: file, lines: ["\(file): \(error.userFacingDescription)"]))
            }
        }
        let (database, diagnostics) = QuirkDatabase.parse(files)
        guard diagnostics.isEmpty else {
            return .failure(ConfigLoadFailure(path: diagnostics[0].file, lines: diagnostics.map(\.rendered)))
        }
        return .success(database)
    }
}
