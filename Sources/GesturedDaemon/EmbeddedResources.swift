/// Text the binary carries so it runs without installed data files. The bytes come from
/// SwiftPM's `.embedInCode` resources (Package.swift): `Resources/gestured.conf` and
/// `Resources/quirks` are links to `config/gestured.conf` and `config/quirks`, so the
/// shipped files are the only copy and nothing generated is committed.
public enum EmbeddedResources {
    /// config/gestured.conf: the built-in defaults when /etc/gestured/gestured.conf is absent.
    public static let defaultConfiguration = String(decoding: PackageResources.gestured_conf, as: UTF8.self)

    /// config/quirks/*.quirks: the device database when /usr/share/gestured/quirks is absent.
    /// SwiftPM names each embedded file by its name only (a leading digit becomes `_`:
    /// `50-cypress-cyapa.quirks` is `_0_cypress_cyapa_quirks`), so every file is listed here
    /// (a test checks the list against config/quirks).
    public static let defaultQuirks: [(name: String, contents: String)] = [
        ("<built-in 30-vendor-elantech.quirks>", String(decoding: PackageResources._0_vendor_elantech_quirks, as: UTF8.self)),
        ("<built-in 50-cypress-cyapa.quirks>", String(decoding: PackageResources._0_cypress_cyapa_quirks, as: UTF8.self)),
    ]
}
