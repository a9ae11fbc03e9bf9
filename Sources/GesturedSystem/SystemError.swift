/// A failed operation at the OS door: what was attempted, on which path, and the `errno`.
///
/// Prints in systemd's message style, `Failed to open '/dev/input/event5': Permission denied`,
/// and, where the project knows what the user can do about it, ``suggestion`` adds one sentence
/// (``userFacingDescription`` combines both).
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation in plain words or the C call's name (`open`, `grab`, `read events from`).
    public var operation: String
    /// The file or device node concerned, when there is one.
    public var path: String?
    /// The error number the call failed with.
    public var errno: Errno

    public init(operation: String, path: String? = nil, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// `Failed to <operation> '<path>': <strerror>` (or without the path when there is none).
    public var description: String {
        if let path {
            return "Failed to \(operation) '\(path)': \(errno)"
        }
        return "Failed to \(operation): \(errno)"
    }

    /// Whether the path is (or is meant as) an input device node, whose failures have the
    /// hints below; a configuration file or a recording does not get them.
    var concernsDevice: Bool {
        guard let path else { return true }
        let name = path.split(separator: "/").last ?? ""
        return path.hasPrefix("/dev/") || name.hasPrefix("event")
    }

    /// What the user can do about the common failures of opening an input device, or `nil`
    /// (for a file other than a device node: only an unreadable one gets a hint).
    public var suggestion: String? {
        guard concernsDevice else {
            if errno == .permissionDenied, let path { return "This user may not read it: check its permissions (ls -l '\(path)')." }
            return nil
        }
        return switch errno {
        case .noSuchFileOrDirectory, .noSuchDevice, .noSuchDeviceOrAddress:
            "No such device node; list devices with `gesturectl list-devices`."
        case .permissionDenied, .notPermitted:
            "Permission denied: run as root, or install the gestured udev rule / add the user to group 'input'."
        case .resourceBusy:
            "Another process grabbed the device (EVIOCGRAB); close it or stop it grabbing."
        case .notATerminal:
            "The path is not an evdev device node (expected /dev/input/eventN)."
        default:
            nil
        }
    }

    /// ``description`` followed by ``suggestion`` when there is one.
    public var userFacingDescription: String {
        guard let suggestion else { return description }
        return "\(description). \(suggestion)"
    }
}
