import Testing

@testable import GestureEngine

@Suite("Click finger stage: the finger holding the button")
struct ClickFingerStageTests {
    @Test("alone: with the button down, a finger staying put while another drags is withdrawn as the clicking finger")
    func clickingFinger() {
        var stage = ClickFingerStage(settings: TouchFilterSettings())
        var table = ContactTable()
        table[TouchID(1)] = StageBench.contact(at: 20, 50)
        table[TouchID(2)] = StageBench.contact(at: 60, 30)
        var press = StageBench.frame(0, [StageBench.touch(1, .stationary, 20, 50), StageBench.touch(2, .stationary, 60, 30)], button: true, table: table)
        stage.end(&press)
        #expect(press.out.isEmpty)
        var drag = StageBench.frame(0.1, [StageBench.touch(1, .stationary, 20, 50), StageBench.touch(2, .moved, 70, 30)], button: true, table: press.table)
        stage.end(&drag)
        #expect(drag.out.map(\.id) == [TouchID(1)])
        #expect(drag.out.first?.phase == .cancelled)
        #expect(drag.out.first?.flags.palm == .clickingFinger)
        #expect(drag.table[TouchID(1)]?.role == .clicking)
        #expect(drag.table[TouchID(2)]?.role == .finger)
    }

    @Test("alone: a contact ending that was down while the button was pressed clicked; one that was not, did not")
    func clicked() {
        let stage = ClickFingerStage(settings: TouchFilterSettings())
        var frame = StageBench.frame(0.2)
        var pressed = StageBench.contact(at: 20, 50)
        pressed.pressedButton = true
        var step = StageBench.step(StageBench.touch(1, .ended, 20, 50), pressed)
        stage.process(&step, in: &frame)
        #expect(step.contact.clicked)
        var plain = StageBench.step(StageBench.touch(2, .ended, 20, 50), StageBench.contact(at: 20, 50))
        stage.process(&plain, in: &frame)
        #expect(!plain.contact.clicked)
    }

    @Test("alone: the button up, a frame changes nothing")
    func buttonUp() {
        var stage = ClickFingerStage(settings: TouchFilterSettings())
        var table = ContactTable()
        table[TouchID(1)] = StageBench.contact(at: 20, 50)
        var frame = StageBench.frame(0, [StageBench.touch(1, .moved, 30, 50)], table: table)
        stage.end(&frame)
        #expect(frame.out.isEmpty)
        #expect(frame.table[TouchID(1)]?.pressAnchor == nil)
    }
}
