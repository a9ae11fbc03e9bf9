import Foundation
import GestureEngine
import GesturedConfig
import GesturedProtocol
import GesturedTestSupport
import Testing

@testable import GesturedDaemon

/// gestured-ipc(7)'s table of *gesture* keys, read from the man page's source: which keys
/// every event carries, and which optional keys which kinds and states carry (the parenthesis
/// that ends an optional key's meaning, as the page explains above the table).
struct GestureKeyTable {
    /// Where an optional key is sent: kinds, optionally only one state, optionally only
    /// sometimes (a clause with "when").
    struct Clause: Equatable {
        var kinds: Set<String>
        var state: String?
        var conditional: Bool
    }

    struct Row {
        var keys: [String]
        var optional: Bool
        /// Empty for an optional key sent "when its meaning says" (no kind parenthesis).
        var clauses: [Clause]
    }

    var rows: [Row] = []
    /// The values the `kind` and `state` rows list.
    var kinds: Set<String> = []
    var states: Set<String> = []

    static let manPage = packageRootDirectory.appendingPathComponent("docs/man/gestured-ipc.7.scd")

    /// Reads the table under "## gesture" (rows of `|  key`, `:  type`, `:  meaning`).
    static func load() throws -> GestureKeyTable {
        let text = try String(contentsOf: manPage, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(of: "## gesture") else { return GestureKeyTable() }
        var cells: [[String]] = []
        for line in lines[(heading + 1)...] {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("|  ") {
                cells.append([String(line.dropFirst(3))])
            } else if line.hasPrefix(":  "), !cells.isEmpty {
                cells[cells.count - 1].append(String(line.dropFirst(3)))
            }
        }
        var table = GestureKeyTable()
        func words(_ s: String) -> [String] {
            s.split(whereSeparator: { !($0.isLetter || $0 == "_") }).map(String.init)
        }
        for row in cells where row.count == 3 {
            let keys = row[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if keys == ["kind"] { table.kinds = Set(words(row[2]).filter { !["or", "a", "custom", "kind"].contains($0) }) }
            if keys == ["state"] { table.states = Set(words(row[2])) }
            table.rows.append(Row(keys: keys, optional: row[1].contains("optional"), clauses: []))
        }
        // The clauses need the kinds and states, read above.
        for (i, row) in cells.enumerated() where row.count == 3 && table.rows[i].optional {
            table.rows[i].clauses = table.clauses(ofMeaning: row[2])
        }
        return table
    }

    /// The clauses of the meaning's final parenthesis, when it names kinds.
    func clauses(ofMeaning meaning: String) -> [Clause] {
        let trimmed = meaning.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else { return [] }
        let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var result: [Clause] = []
        for part in inside.split(separator: ";") {
            var text = part.trimmingCharacters(in: .whitespaces)
            var state: String?
            for s in states where text.hasPrefix(s + " of ") {
                state = s
                text = String(text.dropFirst(s.count + 4))
            }
            let conditional = text.contains(" when ")
            let head = conditional ? String(text[..<text.firstRange(of: " when ")!.lowerBound]) : text
            let named = head.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !named.isEmpty, named.allSatisfy({ kinds.contains($0) }) else { return [] }
            result.append(Clause(kinds: Set(named), state: state, conditional: conditional))
        }
        return result
    }

    /// Whether `key` may appear on an event of `kind` in `state`, and whether it must.
    func rule(for key: String, kind: String, state: String) -> (allowed: Bool, required: Bool)? {
        guard let row = rows.first(where: { $0.keys.contains(key) }) else { return nil }
        if !row.optional { return (true, true) }
        if row.clauses.isEmpty { return (true, false) }
        let matching = row.clauses.filter { $0.kinds.contains(kind) && ($0.state == nil || $0.state == state) }
        return (!matching.isEmpty, matching.contains { !$0.conditional })
    }
}

/// Issue 34: every key gestured-ipc(7) promises is on the wire, on the events the page says,
/// and nothing else is — for every gesture kind and every state, each played through the
/// daemon's replay pipeline and written by the daemon's encoder.
@Suite("gestured-ipc(7)'s table of gesture keys against the wire")
struct WireKeyTableTests {
    /// One kind: a configuration with only that gesture, a scripted performance of it, and
    /// (continuous kinds) the script time at which a second run is cut off by a device
    /// removal, for `cancelled`.
    struct Case: CustomTestStringConvertible, Sendable {
        var kind: String
        var config: String
        var script: @Sendable (GestureSynthesizer) -> GestureScript
        var cancelAt: Double?
        var testDescription: String { kind }
    }

    static let cases: [Case] = [
        Case(kind: "tap", config: "Kind=tap\nFingers=2\n", script: { $0.tap(fingers: 2) }),
        Case(
            kind: "long_press", config: "Kind=long_press\nTaps=1\n",
            script: { $0.tap().followed(by: $0.longPress(duration: 1.0), after: 0.1) }, cancelAt: 1.05),
        Case(kind: "pan", config: "Kind=pan\n", script: { $0.drag(fingers: 2, from: .fraction(x: 0.2, y: 0.5), to: .fraction(x: 0.7, y: 0.5)) }, cancelAt: 0.3),
        Case(kind: "swipe", config: "Kind=swipe\nFingers=3\nDirections=left\n", script: { $0.swipe(fingers: 3, direction: .left, distance: 60) }),
        Case(kind: "pinch", config: "Kind=pinch\n", script: { $0.pinch(scale: 2) }, cancelAt: 0.3),
        Case(kind: "rotation", config: "Kind=rotation\n", script: { $0.rotation(angle: 1.2) }, cancelAt: 0.3),
        Case(kind: "edge_pan", config: "Kind=edge_pan\nEdges=left\n", script: { $0.edgeSwipe(from: .left, distance: 60, duration: 0.5) }, cancelAt: 0.3),
        Case(
            kind: "tickle", config: "Kind=tickle\n",
            script: { s in
                let y = s.millimeters(.center).y
                let xs = [100.0, 110, 100, 110, 100, 110]
                let keyframes = xs.enumerated().map { GestureScript.Keyframe(time: Double($0.offset) * 0.1, position: PhysicalPoint(x: $0.element, y: y)) }
                return GestureScript(strokes: [GestureScript.Stroke(keyframes: keyframes)])
            }),
    ]

    /// The keys of every gesture line the daemon writes for `c`'s performance, by state; with
    /// `cancelAt`, the device is removed at that script time.
    static func wireKeys(_ c: Case, cancelAt: Double? = nil) throws -> [(state: String, keys: Set<String>)] {
        let text = "[Gesture \(c.kind)-gesture]\n" + c.config
        let parsed = Configuration.parse(text, fileName: "gestured.conf")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let configuration = parsed.configuration
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        let device = GestureSynthesizer.demoTouchscreen
        let start = Timestamp(seconds: 1)
        var events = synthesizer.events(for: c.script(synthesizer), startingAt: start)
        let engine = configuration.engineConfiguration(for: device, kind: device.kind)
        var pipeline = GesturePipeline(node: "/dev/input/event5", device: device, configuration: engine)
        var outputs: [EngineOutput]
        if let cancelAt {
            let cut = Timestamp(seconds: 1 + cancelAt)
            events = events.filter { $0.time <= cut }
            outputs = pipeline.feed(events) + pipeline.cancelAll(at: cut)
        } else {
            outputs = pipeline.feed(events) + pipeline.finishReplay()
        }
        let wire = WireDevice(node: "/dev/input/event5", device: device)
        var result: [(String, Set<String>)] = []
        for case .gesture(let e) in outputs {
            let batch = EncodedBatch()
            #expect(WireMapping.appendGesture(e, device: wire, locked: false, consumed: false, to: batch))
            let line = try #require(batch.events.first.map { Data(batch.line($0)) })
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            result.append((try #require(object["state"] as? String), Set(object.keys)))
        }
        return result
    }

    @Test("the table reads: every kind and state, and where each optional key is sent")
    func tableReads() throws {
        let table = try GestureKeyTable.load()
        #expect(table.kinds == Set(Self.cases.map(\.kind)))
        #expect(table.states == ["began", "changed", "ended", "cancelled", "recognized"])
        #expect(table.rows.count >= 30)
        let velocity = try #require(table.rows.first { $0.keys.contains("vx_mm_s") })
        #expect(velocity.clauses == [.init(kinds: ["pan", "edge_pan", "swipe"], state: nil, conditional: false)])
        #expect(table.rule(for: "fling_s", kind: "pan", state: "changed")?.allowed == false)
        #expect(table.rule(for: "fling_s", kind: "pan", state: "ended")?.required == true)
    }

    @Test("every event of the kind carries exactly the keys the table gives it", arguments: cases)
    func keysMatchTable(_ c: Case) throws {
        let table = try GestureKeyTable.load()
        var runs = try Self.wireKeys(c)
        if let cut = c.cancelAt {
            let cancelled = try Self.wireKeys(c, cancelAt: cut)
            #expect(cancelled.last?.state == "cancelled", "a device removal cancels the \(c.kind)")
            runs += cancelled
        }
        let states = Set(runs.map(\.state))
        let expectedStates: Set<String> =
            c.cancelAt == nil ? ["recognized"] : (c.kind == "long_press" ? ["began", "ended", "cancelled"] : ["began", "changed", "ended", "cancelled"])
        #expect(expectedStates.isSubset(of: states), "\(c.kind) gave \(states.sorted())")
        for (state, keys) in runs {
            for key in keys.sorted() {
                guard let rule = table.rule(for: key, kind: c.kind, state: state) else {
                    Issue.record("\(c.kind) \(state) carries '\(key)', which gestured-ipc(7) does not list")
                    continue
                }
                #expect(rule.allowed, "\(c.kind) \(state) carries '\(key)', which the table gives other kinds or states")
            }
            for row in table.rows {
                for key in row.keys where table.rule(for: key, kind: c.kind, state: state)?.required == true {
                    #expect(keys.contains(key), "\(c.kind) \(state) lacks '\(key)', which the table promises")
                }
            }
        }
    }

    @Test("a swipe carries the velocity at its recognition; an ended carries the fingers it held")
    func swipeVelocityAndEndedFingers() throws {
        var synthesizer = GestureSynthesizer(device: GestureSynthesizer.demoTouchscreen)
        // 60 mm left in 0.25 s, straight: the fingers move at 240 mm/s when the swipe is recognized.
        let swipe = synthesizer.events(for: synthesizer.swipe(fingers: 3, direction: .left, distance: 60, duration: 0.25))
        let swipeConfig = Configuration.parse("[Gesture s]\nKind=swipe\nFingers=3\nDirections=left\n", fileName: "gestured.conf").configuration
        let swipeEvents = Replay.outputs(
            of: LoadedRecording(device: GestureSynthesizer.demoTouchscreen, events: swipe, warnings: []), configuration: swipeConfig)
        guard case .gesture(let recognized) = try #require(swipeEvents.first) else { return }
        let message = WireMapping.gestureMessage(recognized, node: "n", device: GestureSynthesizer.demoTouchscreen)
        let vx = try #require(message.vxMMPerS)
        #expect(abs(vx + 240) < 1, "vx_mm_s \(vx)")
        #expect(abs(message.vyMMPerS ?? 1) < 1)
        let drag = synthesizer.events(for: synthesizer.drag(fingers: 3, from: .fraction(x: 0.2, y: 0.5), to: .fraction(x: 0.7, y: 0.5)))
        let panConfig = Configuration.parse("[Gesture p]\nKind=pan\nMinimumNumberOfTouches=3\n", fileName: "gestured.conf").configuration
        let pan = Replay.outputs(of: LoadedRecording(device: GestureSynthesizer.demoTouchscreen, events: drag, warnings: []), configuration: panConfig)
        guard case .gesture(let ended) = try #require(pan.last) else { return }
        #expect(ended.state == .ended)
        #expect(ended.fingers == 3)
    }
}
