/// Where a released translation gesture would come to rest if it slid on with its release
/// velocity, decelerating uniformly (the seeds' "finalPoint" in millimetres, DESIGN.md "Engine and arbitration" ›
/// "What a shell needs to follow a gesture").
public struct Fling: Hashable, Sendable {
    /// How much farther the centroid slides after the release, mm: `v·|v| / (2·a)`.
    public var displacement: PhysicalPoint
    /// Seconds until it stops: `|v| / a`.
    public var duration: Double
    /// Centroid at rest, mm: the release centroid plus ``displacement`` (not clamped to the
    /// surface: a shell clamps to its own bounds).
    public var restLocation: PhysicalPoint
    /// Translation at rest as a fraction of the surface: (translation + displacement) divided
    /// by the surface width and height.
    public var restTranslationFraction: PhysicalPoint

    public init(
        displacement: PhysicalPoint,
        duration: Double,
        restLocation: PhysicalPoint,
        restTranslationFraction: PhysicalPoint
    ) {
        self.displacement = displacement
        self.duration = duration
        self.restLocation = restLocation
        self.restTranslationFraction = restTranslationFraction
    }
}

/// The values a shell animating a gesture 1:1 needs besides the recognizer's own, derived by
/// the engine from consecutive events of one attempt (pure arithmetic, no state of its own).
public enum GestureMotion {
    /// Deceleration of the fling, mm/s²: 1000 pt/s² at spec §0.1's 1 pt = 25.4/163 mm.
    ///
    /// The seeds slide a released view to `centre + v · 0.1 · |v| / 200` (points, points per
    /// second): a displacement of `v·|v| / 2000`, which is `v·|v| / (2·a)` — the distance a
    /// body moving at `v` covers while decelerating uniformly at `a` — with a = 1000 pt/s².
    /// Their animation lasts `2 · 0.1 · |v| / 200 = |v| / 1000` s, which is `|v| / a`, the time
    /// that body takes to stop. In millimetres a = 1000 · 25.4 / 163 = 155.83 mm/s², and the
    /// fling in mm is exactly the seeds' fling in points converted.
    public static let flingDeceleration = 1000 * 25.4 / 163

    /// The fling of a release at `location` (mm) with `velocity` (mm/s) and cumulative
    /// `translation` (mm), on a surface of `width`×`height` mm, decelerating at
    /// `deceleration` mm/s².
    public static func fling(
        location: PhysicalPoint,
        translation: PhysicalPoint,
        velocity: PhysicalPoint,
        surfaceWidth: Double,
        surfaceHeight: Double,
        deceleration: Double = flingDeceleration
    ) -> Fling {
        let speed = velocity.length
        let isMoving = speed.isFinite && speed > 0 && deceleration > 0
        let displacement = isMoving ? velocity * (speed / (2 * deceleration)) : .zero
        let rest = translation + displacement
        return Fling(
            displacement: displacement,
            duration: isMoving ? speed / deceleration : 0,
            restLocation: location + displacement,
            restTranslationFraction: fraction(of: rest, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
        )
    }

    /// `vector` divided by the surface size per axis (0 on an axis of no extent).
    public static func fraction(of vector: PhysicalPoint, surfaceWidth: Double, surfaceHeight: Double) -> PhysicalPoint {
        PhysicalPoint(
            x: surfaceWidth > 0 ? vector.x / surfaceWidth : 0,
            y: surfaceHeight > 0 ? vector.y / surfaceHeight : 0
        )
    }

    /// What one attempt's previous event reported, for the deltas of the next.
    struct Reference: Hashable, Sendable {
        var translation = PhysicalPoint.zero
        var scale = 1.0
        var rotation = 0.0
        /// The fingers the attempt held at its previous event (nil before `began`): its
        /// `ended` reports them, not the fingers still down (none, once they all lifted;
        /// gestured-ipc(7): `fingers` is the fingers held by the gesture). A `cancelled` keeps
        /// the fingers down when it was cancelled, which say why (a count out of range).
        var fingers: Int?

        /// Before `began`: the values an attempt starts from (no motion, scale 1).
        static let start = Reference()
    }
}

extension GestureEvent {
    /// Fills the derived values of a continuous gesture's event from `reference` (what its
    /// previous event reported, ``GestureMotion/Reference/start`` for `began`): the deltas,
    /// the translation as a fraction of the surface, and the fling on `ended`.
    mutating func deriveMotion(from reference: GestureMotion.Reference, surfaceWidth: Double, surfaceHeight: Double) {
        if state == .ended, let held = reference.fingers { fingers = held }
        if let t = translation {
            translationDelta = t - reference.translation
            translationFraction = GestureMotion.fraction(of: t, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
            if state == .ended, let v = velocity {
                fling = GestureMotion.fling(
                    location: location,
                    translation: t,
                    velocity: v,
                    surfaceWidth: surfaceWidth,
                    surfaceHeight: surfaceHeight
                )
            }
        }
        if let s = scale { scaleDelta = s - reference.scale }
        if let r = rotation { rotationDelta = r - reference.rotation }
    }

    /// What this event reported, as the reference for the attempt's next event.
    var motionReference: GestureMotion.Reference {
        GestureMotion.Reference(translation: translation ?? .zero, scale: scale ?? 1, rotation: rotation ?? 0, fingers: fingers)
    }
}
