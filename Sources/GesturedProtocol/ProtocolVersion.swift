/// The wire protocol version spoken by this build (major.minor).
public enum ProtocolVersion {
    public static let major = 1
    public static let minor = 0
}
