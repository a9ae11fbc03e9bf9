import GesturedConfig
import Testing

/// gestured.conf(5)'s layering as a file list, shared by the daemon and
/// `gesturectl check-config`.
@Suite("Configuration layering")
struct ConfigLayeringTests {
    static func layers(mainPath: String? = nil, existing: Set<String>, dropIns: [String: [String]] = [:]) -> ([String], Bool) {
        let result = ConfigLayering.files(mainPath: mainPath, exists: { existing.contains($0) }, dropIns: { dropIns[$0] ?? [] })
        return (result.files, result.builtInVendor)
    }

    @Test("vendor file, then /etc's main file, then its drop-ins in the given order")
    func installed() {
        let (files, builtIn) = Self.layers(
            existing: [ConfigPaths.vendor, ConfigPaths.main],
            dropIns: [ConfigPaths.dropInDirectory: ["/etc/gestured/conf.d/10-a.conf", "/etc/gestured/conf.d/20-b.conf"]]
        )
        #expect(files == [ConfigPaths.vendor, ConfigPaths.main, "/etc/gestured/conf.d/10-a.conf", "/etc/gestured/conf.d/20-b.conf"])
        #expect(!builtIn)
    }

    @Test("without a vendor file the built-in copy is the first layer; a missing main file is skipped")
    func builtInVendor() {
        let (files, builtIn) = Self.layers(existing: [], dropIns: [ConfigPaths.dropInDirectory: ["/etc/gestured/conf.d/x.conf"]])
        #expect(files == ["/etc/gestured/conf.d/x.conf"])
        #expect(builtIn)
    }

    @Test("--config FILE reads only FILE and the drop-ins beside it")
    func explicitFile() {
        let (files, builtIn) = Self.layers(
            mainPath: "/tmp/t/g.conf",
            existing: [ConfigPaths.vendor, ConfigPaths.main],
            dropIns: ["/tmp/t/conf.d": ["/tmp/t/conf.d/1.conf"], ConfigPaths.dropInDirectory: ["/etc/gestured/conf.d/x.conf"]]
        )
        #expect(files == ["/tmp/t/g.conf", "/tmp/t/conf.d/1.conf"])
        #expect(!builtIn)
        #expect(Self.layers(mainPath: "g.conf", existing: [], dropIns: ["./conf.d": ["./conf.d/a.conf"]]).0 == ["g.conf", "./conf.d/a.conf"])
    }
}
