import GesturedCLISupport
import GesturedClient
import GesturedProtocol
import GesturedSystem

/// `gesturectl send-keys COMBO` and `gesturectl click BUTTON`: one input request, its reply
/// printed. The names are checked here first, with the same table the daemon uses, so a typo
/// is reported without a daemon.
enum InputVerb {
    static func run(verb: String, argument: String?, device: String?, socket: String, json: Bool) -> ExitCode {
        guard let argument, !argument.isEmpty else {
            writeStandardError(
                verb == "click"
                    ? "gesturectl: click needs a button, e.g. gesturectl click left\n"
                    : "gesturectl: send-keys needs a combination, e.g. gesturectl send-keys super+Page_Up\n")
            return .usage
        }
        let request: ClientRequest
        if verb == "click" {
            if case .failure(let error) = InputNames.button(argument) {
                writeStandardError("gesturectl: \(error.description)\n")
                return .usage
            }
            request = .click(ClickRequest(button: argument, device: device))
        } else {
            if case .failure(let error) = InputNames.combination(argument) {
                writeStandardError("gesturectl: \(error.description) in '\(argument)'\n")
                return .usage
            }
            let names = argument.split(separator: "+").map { $0.trimmingSpaces() }
            request = .sendKeys(SendKeysRequest(keys: names, device: device))
        }
        guard let client = GesturectlCommand.connect(socket: socket) else { return .unavailable }
        defer { client.close() }
        do {
            let reply = try client.request(request)
            if json { writeStandardOutput(try MessageEncoder().encodeString(reply)) }
            switch reply {
            case .ok:
                if !json { writeStandardOutput("ok (\(request.type) \(argument))\n") }
                return .success
            case .error(let e):
                writeStandardError("gesturectl: gestured refused \(request.type) \(argument): \(e.message) [\(e.code.rawValue)]\n")
                return .failure
            default:
                writeStandardError("gesturectl: unexpected reply '\(reply.type)'\n")
                return .failure
            }
        } catch {
            writeStandardError("gesturectl: \(error)\n")
            return .unavailable
        }
    }
}
