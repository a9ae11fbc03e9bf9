import GesturedLogging
import GesturedProtocol
import GesturedSystem

/// The injector's timer: runs `body` on the IPC loop `afterMicroseconds` from now.
public typealias InputScheduler = @Sendable (_ afterMicroseconds: Int64, _ body: @escaping () -> Void) -> Void

/// `send_keys` and `click` (gestured-ipc(7)): validate the names, decide with
/// ``InputAuthorization``, rate-limit per client, then play through the ``InputInjector``.
extension IPCServer {
    /// The most keys one `send_keys` may press together.
    static let maximumKeysPerCombination = 8

    func handleInput(_ request: ClientRequest, requestID: Int?, from id: Int) {
        guard let client = clients[id] else { return }
        let type = request.type
        func fail(_ code: ErrorCode, _ message: String) {
            logger.info("Refused an input request", [("client.id", "\(id)"), ("client.name", client.name), ("request", type), ("reason", message)])
            send(.error(ErrorReply(id: requestID, code: code, message: message)), to: id)
        }
        let steps: [InputStep]
        let device: String?
        switch request {
        case .sendKeys(let keysRequest):
            device = keysRequest.device
            guard (1...Self.maximumKeysPerCombination).contains(keysRequest.keys.count) else {
                fail(.badRequest, "send_keys: 'keys' must name 1 to \(Self.maximumKeysPerCombination) keys, found \(keysRequest.keys.count)")
                return
            }
            var keys: [InputKey] = []
            for (index, name) in keysRequest.keys.enumerated() {
                switch InputNames.key(name) {
                case .success(let key):
                    guard !keys.contains(key) else {
                        fail(.badRequest, "send_keys: keys[\(index)] '\(name)' is \(key.name), which the combination already presses")
                        return
                    }
                    keys.append(key)
                case .failure(let error):
                    fail(.badRequest, "send_keys: keys[\(index)]: \(error.description)")
                    return
                }
            }
            steps = InputStep.chord(keys, on: .keyboard)
        case .click(let clickRequest):
            device = clickRequest.device
            switch InputNames.button(clickRequest.button) {
            case .success(let button): steps = InputStep.chord([button], on: .pointer)
            case .failure(let error):
                let known = InputNames.buttonNames.map(\.name).joined(separator: ", ")
                fail(.badRequest, "click: field 'button': \(error.description); buttons are \(known)")
                return
            }
        default:
            return
        }
        let seat: String
        if let device {
            guard let known = state.seat(ofDevice: device) else {
                fail(.badRequest, "\(type): device '\(device)' is not a device the daemon has open (see list_devices)")
                return
            }
            seat = known
        } else {
            seat = InputAuthorization.virtualDeviceSeat
        }
        let decision = InputAuthorization.decide(
            clientID: id, uid: client.connection.credentials?.uid, isEnabled: settings.allowInput, seat: seat, sessions: sessions)
        if case .refused(let reason) = decision {
            fail(.notPermitted, reason)
            return
        }
        let injector = makeInjectorIfNeeded()
        guard client.inputRate.take(nowMicroseconds: MonotonicClock.nowMicroseconds()),
            injector.pendingCount(clientID: id) < InputInjector.queueLimitPerClient
        else {
            let limit = client.inputRate
            fail(
                .rateLimited,
                "client \(id): more input requests than the limit (\(limit.burst) at once, \(limit.perSecond) a second); this \(type) was dropped")
            return
        }
        let description = steps.map { ($0.isPressed ? "+" : "-") + $0.key.name }.joined(separator: " ")
        logger.info("Sending input", [("client.id", "\(id)"), ("client.name", client.name), ("request", type), ("steps", description)])
        injector.submit(clientID: id, steps: steps) { [self] failure in
            if let failure {
                send(.error(ErrorReply(id: requestID, code: .unavailable, message: "client \(id): cannot carry out \(type): \(failure.description)")), to: id)
            } else {
                send(.ok(OkReply(id: requestID, request: type)), to: id)
            }
        }
    }

    /// Whether an input request for seat0 would be allowed now (the `input` capability).
    func mayInject(_ client: ClientSession) -> Bool {
        InputAuthorization.decide(
            clientID: client.id, uid: client.connection.credentials?.uid, isEnabled: settings.allowInput,
            seat: InputAuthorization.virtualDeviceSeat, sessions: sessions) == .allowed
    }

    private func makeInjectorIfNeeded() -> InputInjector {
        if let injector { return injector }
        let sink = inputSink ?? UInputSink(loop: loop, logger: logger)
        inputSink = sink
        let loop = self.loop
        let schedule: InputInjector.Scheduler = inputScheduler ?? { delay, body in loop.run(afterMicroseconds: delay, body) }
        let made = InputInjector(sink: sink, schedule: schedule)
        injector = made
        return made
    }
}
