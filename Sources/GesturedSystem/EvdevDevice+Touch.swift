/// Why a device node cannot be used as a touch device: the OS refused, or the device is no
/// touch device.
public enum DeviceOpenError: Error, Sendable, Hashable, CustomStringConvertible {
    case system(SystemError)
    case notATouchDevice(path: String, NotATouchDevice)

    /// One sentence for the user, with what to do where the project knows it:
    /// `Failed to open '/dev/input/event5': Permission denied. Permission denied: run as root, …`
    public var description: String {
        switch self {
        case .system(let error):
            error.userFacingDescription
        case .notATouchDevice(let path, let reason):
            "\(path): \(reason). Choose a touchscreen or touchpad from `gesturectl list-devices`."
        }
    }
}

extension EvdevDevice {
    /// Opens `path` and checks that it is a touch device gestured can use.
    ///
    /// - Returns: the open device and its classification.
    /// - Throws: ``DeviceOpenError`` — `system` for open/ioctl failures, `notATouchDevice`
    ///   listing the missing capabilities (the device is closed again).
    public static func openTouchDevice(path: String) throws(DeviceOpenError) -> (EvdevDevice, DeviceClassification) {
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            throw .system(error)
        }
        switch DeviceClassifier.classify(device.description) {
        case .success(let classification):
            return (device, classification)
        case .failure(let reason):
            device.close()
            throw .notATouchDevice(path: path, reason)
        }
    }
}
