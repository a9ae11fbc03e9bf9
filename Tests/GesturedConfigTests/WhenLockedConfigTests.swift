import Testing

@testable import GesturedConfig

@Suite("[Gesture] WhenLocked=")
struct WhenLockedConfigTests {
    @Test("WhenLocked=yes marks the gesture and renders back; WhenLocked=no marks nothing")
    func marksAndRenders() {
        let text = """
            [Gesture osk]
            Kind=edge_pan
            Edges=bottom
            WhenLocked=yes

            [Gesture tap]
            Kind=tap
            WhenLocked=no
            """
        let result = Configuration.parse(text, fileName: "f.conf")
        #expect(result.diagnostics.map(\.rendered) == [])
        #expect(result.configuration.gesturesWhenLocked == ["osk"])
        let rendered = result.configuration.rendered()
        #expect(rendered.contains("[Gesture osk]") && rendered.contains("WhenLocked=yes"))
        let reparsed = Configuration.parse(rendered, fileName: "rendered")
        #expect(reparsed.diagnostics.map(\.rendered) == [])
        #expect(reparsed.configuration == result.configuration)
    }

    @Test("a value that is not a boolean is an error at its file:line:column")
    func badValue() {
        let result = Configuration.parse("[Gesture osk]\nKind=edge_pan\nEdges=bottom\nWhenLocked=maybe\n", fileName: "f.conf")
        let rendered = result.diagnostics.map(\.rendered)
        #expect(rendered.contains { $0.hasPrefix("f.conf:4:12: error: WhenLocked=") }, "\(rendered)")
        #expect(result.configuration.gesturesWhenLocked.isEmpty)
    }
}
