// Contacts: one per pair of shapes whose fat boxes overlap, kept until the
// boxes separate. A contact is "touching" while its manifold has points (or,
// for sensors, while the shapes overlap); begin/end events mark the changes.

enum PairKind: UInt8 { case circles, polygonCircle, polygons, chainCircle, chainPolygon }

/// The parallel narrow phase's finding for one contact.
enum PendingUpdate: UInt8 {
    /// Not looked at (no parallel pass this step).
    case none
    /// Both bodies were asleep (or one static): not updated.
    case asleep
    /// The fat boxes no longer overlap: to be destroyed.
    case separated
    /// Updated; `touching` did not change.
    case same
    /// Updated; `touching` changed (an event and a wake to come).
    case changed
}

final class Contact {
    let shapeA: Shape
    let shapeB: Shape
    let bodyA: Body
    let bodyB: Body
    let kind: PairKind
    let isSensor: Bool
    let friction: Double
    let restitution: Double
    let key: UInt64
    var index = -1
    var manifold = Manifold()
    var touching = false
    /// What the parallel narrow phase found for this contact (`NarrowPhaseStage`), for the
    /// serial pass that follows it in the same step.
    var pending = PendingUpdate.none

    init(_ a: Shape, _ b: Shape, key: UInt64) {
        // Order the pair so that the polygon (or segment) comes first against a circle.
        var sa = a, sb = b
        if sa.core == nil && sb.core != nil { swap(&sa, &sb) }
        if sb.ghosts != nil && sa.ghosts == nil { swap(&sa, &sb) }  // a chain segment comes first
        shapeA = sa; shapeB = sb
        bodyA = sa.body!; bodyB = sb.body!
        if sa.ghosts != nil && sb.ghosts == nil {
            kind = sb.core == nil ? .chainCircle : .chainPolygon
        } else {
            kind = sa.core == nil ? .circles : (sb.core == nil ? .polygonCircle : .polygons)
        }
        isSensor = sa.isSensor || sb.isSensor
        friction = (sa.friction * sb.friction).squareRoot()
        restitution = max(sa.restitution, sb.restitution)
        self.key = key
    }

    /// The narrow phase's look at this contact: nothing when both bodies are asleep (or one is
    /// static), "separated" when the fat boxes no longer overlap, otherwise the manifold is
    /// recomputed (`update`). Used by the serial loop and by every thread of the parallel pass.
    func refresh(_ tree: DynamicTree, margin: Double) -> PendingUpdate {
        if !bodyA.awake && !bodyB.awake { return .asleep }
        if !tree.fatAABB(shapeA.proxyId).overlaps(tree.fatAABB(shapeB.proxyId)) { return .separated }
        return update(margin: margin) ? .changed : .same
    }

    /// Recomputes the manifold at the bodies' current transforms; returns whether touching changed.
    /// `margin`: points whose shapes are up to this far apart count (the soft step's
    /// speculative distance; 0 for the legacy solver and for sensors, which report overlaps).
    func update(margin: Double) -> Bool {
        let xfA = bodyA.xf, xfB = bodyB.xf
        let margin = isSensor ? 0 : margin
        var m: Manifold
        switch kind {
        case .circles:
            m = Collide.circles(shapeA.circleCenter, shapeA.radius, xfA, shapeB.circleCenter, shapeB.radius, xfB,
                                margin: margin)
        case .polygonCircle:
            m = Collide.polygonCircle(shapeA.coreRef, shapeA.radius, xfA, shapeB.circleCenter, shapeB.radius, xfB,
                                      margin: margin)
        case .polygons:
            m = Collide.polygons(shapeA.coreRef, xfA, shapeB.coreRef, xfB, margin: margin)
        case .chainCircle:
            m = Collide.chainCircle(shapeA.coreRef, shapeA.ghosts!, xfA, shapeB.circleCenter, shapeB.radius, xfB,
                                    margin: margin)
        case .chainPolygon:
            m = Collide.chainPolygon(shapeA.coreRef, shapeA.ghosts!, xfA, shapeB.coreRef, shapeB.circleCenter, xfB,
                                     margin: margin)
        }
        let was = touching
        touching = m.pointCount > 0
        if isSensor {
            manifold = Manifold()
        } else {
            // Warm starting: carry impulses over to points with the same feature key.
            for i in 0..<m.pointCount {
                let id = m[i].id
                for j in 0..<manifold.pointCount where manifold[j].id == id {
                    m[i].normalImpulse = manifold[j].normalImpulse
                    m[i].tangentImpulse = manifold[j].tangentImpulse
                    break
                }
            }
            manifold = m
        }
        return was != touching
    }
}
