import Foundation
import GesturedProtocol

/// What the socket client of a guest script (`vm_client_start`) received: the
/// lines printed as `client json {...}`, decoded with the protocol module.
enum ClientTranscript {
    /// Everything the socket client received, decoded with the protocol module.
    static func received(_ run: GuestRun) throws -> [DaemonMessage] {
        let decoder = MessageDecoder()
        return try run.lines("client", "json").map { try decoder.decodeDaemonMessage(Array($0.utf8)) }
    }

    /// The gesture events of one device, in order.
    static func gestures(_ run: GuestRun, device name: String) throws -> [GestureEventMessage] {
        try received(run).compactMap { message in
            if case .gesture(let gesture) = message, gesture.deviceName == name { return gesture }
            return nil
        }
    }

    /// Each gesture (one gesture id) in one line: its name and fingers, then
    /// what it did — a discrete one its direction; a continuous one the
    /// states it went through, and which way it scaled, turned or left an edge.
    static func outcomes(_ gestures: [GestureEventMessage]) -> [String] {
        var order: [String] = []
        var events: [String: [GestureEventMessage]] = [:]
        for gesture in gestures {
            if events[gesture.gestureID] == nil { order.append(gesture.gestureID) }
            events[gesture.gestureID, default: []].append(gesture)
        }
        return order.map { id in
            let all = events[id] ?? []
            let first = all[0]
            var line = "\(first.name) fingers=\(first.fingers)"
            if all.count == 1, first.state == .recognized {
                if let direction = first.direction { line += " \(direction)" }
                return line
            }
            line += " " + phases(all.map(\.state))
            if let edge = first.edge { line += " from \(edge)" }
            if let scale = all.last?.scale { line += scale > 1 ? " grew" : " shrank" }
            if let rotation = all.last?.rotation { line += rotation > 0 ? " clockwise" : " counterclockwise" }
            return line
        }
    }

    /// "began…ended": began, any number of changed, then ended or cancelled;
    /// any other sequence is spelled out.
    static func phases(_ states: [WireGestureState]) -> String {
        let middle = states.dropFirst().dropLast()
        if states.count >= 2, states.first == .began, middle.allSatisfy({ $0 == .changed }),
            let last = states.last, last == .ended || last == .cancelled
        {
            return "began…\(last.rawValue)"
        }
        return states.map(\.rawValue).joined(separator: ",")
    }

    /// The gesture events between the `plug`-th device_added (1-based) and the
    /// device_removed after it, for a device plugged in several times.
    static func gestures(_ run: GuestRun, plug: Int) throws -> [GestureEventMessage] {
        var plugs = 0
        var inside = false
        var gestures: [GestureEventMessage] = []
        for message in try received(run) {
            switch message {
            case .deviceAdded:
                plugs += 1
                inside = plugs == plug
            case .deviceRemoved:
                inside = false
            case .gesture(let gesture) where inside:
                gestures.append(gesture)
            default:
                break
            }
        }
        return gestures
    }
}
