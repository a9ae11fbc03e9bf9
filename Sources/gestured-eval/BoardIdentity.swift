import GestureEngine

/// Who made the touchpads of the ChromiumOS board descriptions (`devices/chromiumos-autotest/
/// *.touchpad`), which carry axis ranges but no name or ids. The quirks match devices by
/// name, bus, vendor and product, never by axis ranges, so the evaluation gives each board
/// description the identity the kernel gives the real device:
///
/// | description | device | kernel name, bus | source |
/// |---|---|---|---|
/// | `lumpy.touchpad` (also the 2012 "link" prototype of hardware_Trackpad, LabelMapping) | Cypress APA (cyapa) | "Cypress APA Trackpad (cyapa)", I2C | kernel `drivers/input/mouse/cyapa.h` (`CYAPA_NAME`); ChromiumOS xorg-conf `50-touchpad-cmt-lumpy.conf` matches "cyapa"; lumpy's boot log "input: Cypress APA Trackpad (cyapa) as …/i2c-0/0-0067" |
/// | `alex.touchpad` | Synaptics PS/2 | "SynPS/2 Synaptics TouchPad", PS/2 0002:0007 | ChromiumOS xorg-conf `50-touchpad-cmt-alex.conf`; ranges 1472–5472 × 1408–4448 as every SynPS/2 pad of the shared descriptions |
/// | `link.touchpad`, `link-fw_1.0.AA-manual.touchpad` (Chromebook Pixel 2013) | Atmel maXTouch | "Atmel maXTouch Touchpad", I2C | the manual log's own name "link-touch-device" on bus 0018; ChromiumOS xorg-conf `50-touchpad-cmt-link.conf` ("Atmel maXTouch Touchpad") |
struct BoardIdentity: Sendable {
    var name: String
    var bustype: UInt16
    var vendor: UInt16
    var product: UInt16

    static func identity(forDescription path: String) -> BoardIdentity? {
        switch path.split(separator: "/").last.map(String.init) {
        case "lumpy.touchpad": BoardIdentity(name: "Cypress APA Trackpad (cyapa)", bustype: 0x18, vendor: 0, product: 0)
        case "alex.touchpad": BoardIdentity(name: "SynPS/2 Synaptics TouchPad", bustype: 0x11, vendor: 0x2, product: 0x7)
        case "link.touchpad", "link-fw_1.0.AA-manual.touchpad":
            BoardIdentity(name: "Atmel maXTouch Touchpad", bustype: 0x18, vendor: 0, product: 0)
        default: nil
        }
    }

    /// Names the description, unless it already has a name of its own.
    func apply(to device: inout DeviceDescription) {
        guard device.name.isEmpty || device.name == "link-touch-device" else { return }
        device.name = name
        device.bustype = bustype
        device.vendor = vendor
        device.product = product
    }
}
