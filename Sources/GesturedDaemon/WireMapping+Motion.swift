public import GestureEngine
public import GesturedProtocol

extension WireMapping {
    /// The keys a shell animating 1:1 needs (gestured-ipc(7), "Following a gesture"), from the
    /// values the engine derived (``GestureMotion``).
    ///
    /// A delta is sent as the difference of the rounded values it connects, so the deltas a
    /// client adds up are exactly the cumulative value it was sent (`dx_mm`, `scale`,
    /// `rotation`), with no rounding drift.
    public static func addMotion(of e: GestureEvent, to m: inout GestureEventMessage) {
        if let t = e.translation, let d = e.translationDelta {
            m.dxDeltaMM = roundedDifference(t.x, t.x - d.x, places: 2)
            m.dyDeltaMM = roundedDifference(t.y, t.y - d.y, places: 2)
        }
        if let f = e.translationFraction {
            m.dxFraction = rounded(f.x, places: 4)
            m.dyFraction = rounded(f.y, places: 4)
        }
        if let s = e.scale, let d = e.scaleDelta { m.scaleDelta = roundedDifference(s, s - d, places: 4) }
        if let r = e.rotation, let d = e.rotationDelta { m.rotationDelta = roundedDifference(r, r - d, places: 4) }
        if let fling = e.fling {
            m.restXMM = rounded(fling.restLocation.x)
            m.restYMM = rounded(fling.restLocation.y)
            m.restDxFraction = rounded(fling.restTranslationFraction.x, places: 4)
            m.restDyFraction = rounded(fling.restTranslationFraction.y, places: 4)
            m.flingS = rounded(fling.duration, places: 3)
        }
    }

    /// `rounded(value) − rounded(previous)`, itself rounded so that the subtraction adds no
    /// binary noise (0.3 − 0.1 is 0.19999999999999998 in binary).
    static func roundedDifference(_ value: Double, _ previous: Double, places: Int) -> Double {
        rounded(rounded(value, places: places) - rounded(previous, places: places), places: places)
    }
}
