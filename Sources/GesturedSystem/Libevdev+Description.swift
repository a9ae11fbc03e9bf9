internal import CLinuxInput
import GestureEngine

/// Reading and building ``DeviceDescription``s through a libevdev handle.
///
/// `EvdevDevice` reads the description of a live device with ``describe(_:)``; tests and
/// ``UInputDevice`` build an in-memory libevdev device from a description with
/// ``makeLibevdev(from:)`` — libevdev's own trick for testing without hardware.
enum Libevdev {
    /// The highest event type (`EV_MAX`).
    static let maxType: UInt32 = UInt32(EV_MAX)
    /// The highest input property (`INPUT_PROP_MAX`).
    static let maxProperty: UInt32 = UInt32(INPUT_PROP_MAX)

    /// Everything the engine needs to know about the device behind `handle`: name, ids,
    /// properties, every supported (type, code) and the absinfo of every absolute axis.
    static func describe(_ handle: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(handle).map { String(cString: $0) } ?? ""
        var properties: Set<InputProperty> = []
        for raw in 0...maxProperty where libevdev_has_property(handle, raw) != 0 {
            if let property = InputProperty(rawValue: UInt16(raw)) { properties.insert(property) }
        }
        var codes: Set<EventUsage> = []
        var axes: [UInt16: AxisInfo] = [:]
        for type in 0...maxType where libevdev_has_event_type(handle, type) != 0 {
            let highest = libevdev_event_type_get_max(type)
            guard highest >= 0 else { continue }
            for code in 0...UInt32(highest) where libevdev_has_event_code(handle, type, code) != 0 {
                codes.insert(EventUsage(type: UInt16(type), code: UInt16(code)))
                if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(handle, code) {
                    axes[UInt16(code)] = AxisInfo(
                        minimum: info.pointee.minimum,
                        maximum: info.pointee.maximum,
                        fuzz: info.pointee.fuzz,
                        flat: info.pointee.flat,
                        resolution: info.pointee.resolution
                    )
                }
            }
        }
        return DeviceDescription(
            name: name,
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)),
            properties: properties,
            codes: codes,
            axes: axes
        )
    }

    /// A new in-memory libevdev device (`libevdev_new`, no file descriptor) with the name,
    /// ids, properties, codes and absinfo of `description`. The caller frees it with
    /// `libevdev_free`.
    static func makeLibevdev(from description: DeviceDescription) -> OpaquePointer {
        guard let handle = libevdev_new() else { fatalError("libevdev_new failed: out of memory") }
        libevdev_set_name(handle, description.name)
        libevdev_set_id_bustype(handle, Int32(description.bustype))
        libevdev_set_id_vendor(handle, Int32(description.vendor))
        libevdev_set_id_product(handle, Int32(description.product))
        libevdev_set_id_version(handle, Int32(description.version))
        for property in description.properties {
            libevdev_enable_property(handle, UInt32(property.rawValue))
        }
        var absCodes = Set(description.axes.keys)
        for usage in description.codes where usage.type == EventUsage.evAbs { absCodes.insert(usage.code) }
        for code in absCodes.sorted() {
            let axis = description.axes[code] ?? AxisInfo(minimum: 0, maximum: 0)
            var info = input_absinfo(
                value: axis.minimum,
                minimum: axis.minimum,
                maximum: axis.maximum,
                fuzz: axis.fuzz,
                flat: axis.flat,
                resolution: axis.resolution
            )
            libevdev_enable_event_code(handle, UInt32(EV_ABS), UInt32(code), &info)
        }
        for usage in description.codes.sorted() where usage.type != EventUsage.evAbs {
            libevdev_enable_event_code(handle, UInt32(usage.type), UInt32(usage.code), nil)
        }
        return handle
    }
}

extension RawEvent {
    /// A kernel `input_event` as a ``RawEvent`` (µs timestamp from `time.tv_sec`/`tv_usec`;
    /// the `input_event_sec` macro does not import into Swift).
    init(_ event: input_event) {
        self.init(
            time: Timestamp(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
            type: event.type,
            code: event.code,
            value: event.value
        )
    }
}
