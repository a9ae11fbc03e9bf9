import Foundation
import GestureEngine
import GesturedDaemon
import Testing

/// The built-in quirks reach the device the engine reads (`LoadedConfiguration.configurator`,
/// the daemon's, `--replay`'s and `gestured-eval`'s path): an Elantech pad whose kernel
/// reports no resolution is read at libinput's 31 units/mm (`config/quirks/30-vendor-elantech.quirks`),
/// not at the 69 × 50 mm fallback.
@Suite("Device quirks: resolution hints")
struct QuirkResolutionTests {
    /// The Dell Inspiron 7520's Elantech pad (shared corpus): X 0…2940, Y 0…1400, no resolution.
    static let dell = DeviceDescription(
        name: "ETPS/2 Elantech Touchpad", bustype: 0x11, vendor: 2, product: 0x0e, properties: [.pointer],
        axes: [
            EventUsage.absX.code: AxisInfo(minimum: 0, maximum: 2940), EventUsage.absY.code: AxisInfo(minimum: 0, maximum: 1400),
            EventUsage.absMTSlot.code: AxisInfo(minimum: 0, maximum: 1),
            EventUsage.absMTPositionX.code: AxisInfo(minimum: 0, maximum: 2940),
            EventUsage.absMTPositionY.code: AxisInfo(minimum: 0, maximum: 1400),
        ])

    static func configurator() throws -> DeviceConfigurator {
        let path = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../config/evaluation.conf").standardized.path
        switch ConfigLoader.load(mainPath: path) {
        case .success(let loaded): return loaded.configurator
        case .failure(let failure): throw failure
        }
    }

    @Test("an Elantech pad without a resolution is 95 × 45 mm to the engine, as to libinput")
    func elantechHint() throws {
        let setup = try #require(try Self.configurator()(Self.dell, .touchpad, [:]))
        #expect(setup.device.resolutionX == 31 && setup.device.resolutionY == 31)
        #expect(abs(setup.device.widthMillimeters - 94.8) < 0.1)
        #expect(setup.quirks.sources.contains { $0.hasPrefix("Elantech Touchpads") }, "\(setup.quirks.sources)")
    }

    @Test("a pad of another make without a resolution keeps the 69 × 50 mm fallback")
    func otherMakeFallback() throws {
        var synaptics = Self.dell
        synaptics.name = "SynPS/2 Synaptics TouchPad"
        synaptics.product = 7
        let setup = try #require(try Self.configurator()(synaptics, .touchpad, [:]))
        #expect(abs(setup.device.widthMillimeters - 69) < 0.01)
    }
}
