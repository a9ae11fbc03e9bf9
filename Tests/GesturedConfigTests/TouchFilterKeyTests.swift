import GestureEngine
import Testing

@testable import GesturedConfig

@Suite("[TouchFilter] keys")
struct TouchFilterKeyTests {
    @Test("keys set the filter's thresholds in mm, ms, % and device units, and render back")
    func keys() {
        let text = """
            [TouchFilter]
            PalmPressure=130
            TapMinimumPressure=none
            EdgeBand=10%
            LiftDelay=60ms
            ReappearDistance=6mm
            FakeFingers=no
            """
        let result = Configuration.parse(text, fileName: "f.conf")
        #expect(result.diagnostics.map(\.rendered) == [])
        let filter = result.configuration.touchFilter
        #expect(filter.palmPressure == 130)
        #expect(filter.tapMinimumPressure == nil)
        #expect(filter.edgeBandFraction == 0.1)
        #expect(filter.liftDelay == 0.06)
        #expect(filter.reappearDistance == 6)
        #expect(!filter.synthesizesUntrackedFingers)
        let reparsed = Configuration.parse(result.configuration.rendered(), fileName: "rendered")
        #expect(reparsed.diagnostics.map(\.rendered) == [])
        #expect(reparsed.configuration.touchFilter == filter)
    }

    @Test("defaults render to the built-in settings; a bad value and an unknown key say where")
    func defaultsAndErrors() {
        let defaults = Configuration.parse(ConfigRenderer.render(TouchFilterSettings()), fileName: "d.conf")
        #expect(defaults.diagnostics.map(\.rendered) == [])
        #expect(defaults.configuration.touchFilter == TouchFilterSettings())
        let bad = Configuration.parse("[TouchFilter]\nLiftDelay=40\nEdgeBnd=8%\n", fileName: "b.conf")
        #expect(
            bad.diagnostics.map(\.rendered) == [
                "b.conf:2:11: error: LiftDelay=: duration '40' needs a unit (write 40ms or 40s)",
                "b.conf:3:1: warning: unknown key 'EdgeBnd' in [TouchFilter], ignoring (did you mean 'EdgeBand'?)",
            ])
    }
}
