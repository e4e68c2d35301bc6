// Narrow phase: contact manifolds for every pair of shape kinds.
//
// A manifold is stored in body-local form (a reference normal and point on one
// body, contact points on the other) so the position solver can re-evaluate
// the separation after bodies move. Polygons and segments share one routine:
// a segment is a two-sided "polygon" with two vertices and normals ±n.

enum ManifoldType: UInt8 { case circles, faceA, faceB }

/// A polygon (or segment) core as the narrow phase reads it: vertices and normals in
/// one buffer owned by the shape (`Shape.coreBuffer`), so the hot loops neither retain
/// arrays nor check bounds. Valid while the shape lives (contacts hold their shapes).
struct PolyRef {
    let vertices: UnsafePointer<Vec2>
    let normals: UnsafePointer<Vec2>
    let count: Int
}

struct ManifoldPoint {
    /// circles: centre of circle B in B's frame; faceA: clip point in B's frame; faceB: clip point in A's frame.
    var localPoint: Vec2
    var normalImpulse: Double = 0
    var tangentImpulse: Double = 0
    /// Feature key used to match points between steps (warm starting).
    var id: UInt32
}

struct Manifold {
    var type: ManifoldType = .circles
    var localNormal: Vec2 = .zero
    var localPoint: Vec2 = .zero
    var pointCount: Int = 0
    var p0 = ManifoldPoint(localPoint: .zero, id: 0)
    var p1 = ManifoldPoint(localPoint: .zero, id: 0)

    subscript(i: Int) -> ManifoldPoint {
        get { i == 0 ? p0 : p1 }
        set { if i == 0 { p0 = newValue } else { p1 = newValue } }
    }
}

@inline(__always) private func featureID(_ indexA: Int, _ indexB: Int, _ typeA: UInt32, _ typeB: UInt32) -> UInt32 {
    UInt32(indexA) | (UInt32(indexB) << 8) | (typeA << 16) | (typeB << 24)
}
@inline(__always) private func flipID(_ id: UInt32) -> UInt32 {
    let a = id & 0xFF, b = (id >> 8) & 0xFF, ta = (id >> 16) & 0xFF, tb = (id >> 24) & 0xFF
    return b | (a << 8) | (tb << 16) | (ta << 24)
}
private let featureVertex: UInt32 = 0
private let featureFace: UInt32 = 1

enum Collide {
    static func circles(_ pA: Vec2, _ rA: Double, _ xfA: Transform, _ pB: Vec2, _ rB: Double, _ xfB: Transform,
                        margin: Double = 0) -> Manifold {
        var m = Manifold()
        let a = xfA.apply(pA), b = xfB.apply(pB)
        let r = rA + rB + margin
        if distanceSquared(a, b) > r * r { return m }
        m.type = .circles
        m.localPoint = pA
        m.pointCount = 1
        m.p0 = ManifoldPoint(localPoint: pB, id: 0)
        return m
    }

    /// Polygon (or segment) A against circle B.
    static func polygonCircle(_ poly: PolyRef, _ rA: Double, _ xfA: Transform, _ pB: Vec2, _ rB: Double, _ xfB: Transform,
                              margin: Double = 0) -> Manifold {
        var m = Manifold()
        let c = xfA.applyInverse(xfB.apply(pB))
        let r = rA + rB + margin
        let v = poly.vertices, ns = poly.normals, n = poly.count
        var sep = -Double.greatestFiniteMagnitude
        var edge = 0
        for i in 0..<n {
            let s = dot(ns[i], c - v[i])
            if s > r { return m }
            if s > sep { sep = s; edge = i }
        }
        let v1 = v[edge], v2 = v[edge + 1 < n ? edge + 1 : 0]
        m.pointCount = 1
        m.type = .faceA
        m.p0 = ManifoldPoint(localPoint: pB, id: 0)
        if sep < 1e-12 {
            // Centre inside the core: push out along the least-penetrated face.
            m.localNormal = ns[edge]
            m.localPoint = 0.5 * (v1 + v2)
            return m
        }
        let u1 = dot(c - v1, v2 - v1), u2 = dot(c - v2, v1 - v2)
        if u1 <= 0 {
            if distanceSquared(c, v1) > r * r { return Manifold() }
            m.localNormal = (c - v1).normalized
            m.localPoint = v1
        } else if u2 <= 0 {
            if distanceSquared(c, v2) > r * r { return Manifold() }
            m.localNormal = (c - v2).normalized
            m.localPoint = v2
        } else {
            let mid = 0.5 * (v1 + v2)
            if dot(c - mid, ns[edge]) > r { return Manifold() }
            m.localNormal = ns[edge]
            m.localPoint = mid
        }
        return m
    }

    /// The edge of poly1 whose outward normal separates it most from poly2 (SAT).
    static func maxSeparation(_ p1: PolyRef, _ xf1: Transform, _ p2: PolyRef, _ xf2: Transform) -> (Int, Double) {
        // Express poly1 in poly2's frame.
        let q = Rot(c: xf2.q.c * xf1.q.c + xf2.q.s * xf1.q.s, s: xf2.q.c * xf1.q.s - xf2.q.s * xf1.q.c)
        let t = xf2.q.applyInverse(xf1.p - xf2.p)
        var best = 0, bestSep = -Double.greatestFiniteMagnitude
        let v2 = p2.vertices, n2 = p2.count
        for i in 0..<p1.count {
            let n = q.apply(p1.normals[i])
            let v1 = q.apply(p1.vertices[i]) + t
            var si = Double.greatestFiniteMagnitude
            for j in 0..<n2 {
                let s = n.x * (v2[j].x - v1.x) + n.y * (v2[j].y - v1.y)
                if s < si { si = s }
            }
            if si > bestSep { bestSep = si; best = i }
        }
        return (best, bestSep)
    }

    private struct ClipVertex { var v: Vec2; var id: UInt32 }

    private static func clip(_ a: ClipVertex, _ b: ClipVertex, normal: Vec2, offset: Double, vertexIndex: Int) -> (ClipVertex, ClipVertex, Int) {
        let d0 = dot(normal, a.v) - offset, d1 = dot(normal, b.v) - offset
        var o0 = a, o1 = b
        var count = 0
        if d0 <= 0 { o0 = a; count = 1 }
        if d1 <= 0 {
            if count == 0 { o0 = b } else { o1 = b }
            count += 1
        }
        if d0 * d1 < 0 {
            let t = d0 / (d0 - d1)
            let p = a.v + t * (b.v - a.v)
            let incidentIndex = Int((a.id >> 8) & 0xFF)
            let cv = ClipVertex(v: p, id: featureID(vertexIndex, incidentIndex, featureVertex, featureFace))
            if count == 0 { o0 = cv } else { o1 = cv }
            count += 1
        }
        return (o0, o1, count)
    }

    /// Polygon/segment A against polygon/segment B: SAT for the reference face, then clip the incident edge.
    static func polygons(_ polyA: PolyRef, _ xfA: Transform, _ polyB: PolyRef, _ xfB: Transform,
                         margin: Double = 0) -> Manifold {
        let reach = 2 * PhysicsSettings.polygonRadius + margin
        let (edgeA, sepA) = maxSeparation(polyA, xfA, polyB, xfB)
        if sepA > reach { return Manifold() }
        let (edgeB, sepB) = maxSeparation(polyB, xfB, polyA, xfA)
        if sepB > reach { return Manifold() }

        let poly1: PolyRef, poly2: PolyRef, xf1: Transform, xf2: Transform, edge1: Int, flip: Bool
        if sepB > sepA + 0.1 * PhysicsSettings.linearSlop {
            poly1 = polyB; poly2 = polyA; xf1 = xfB; xf2 = xfA; edge1 = edgeB; flip = true
        } else {
            poly1 = polyA; poly2 = polyB; xf1 = xfA; xf2 = xfB; edge1 = edgeA; flip = false
        }
        return clipped(reference: poly1, xf1, edge: edge1, incident: poly2, xf2, flip: flip, margin: margin)
    }

    /// The manifold with face `edge1` of `poly1` as the reference face: the incident edge of
    /// `poly2` clipped against the face's side planes. `flip` says poly1 is shape B. Points
    /// whose skins are up to `margin` apart are kept (the soft step's speculative points).
    /// The second half of `polygons`, shared with the chain routines (inlined, so the
    /// polygon hot path does not pay a call).
    @inline(__always)
    static func clipped(reference poly1: PolyRef, _ xf1: Transform, edge edge1: Int,
                        incident poly2: PolyRef, _ xf2: Transform, flip: Bool, margin: Double = 0) -> Manifold {
        let totalR = 2 * PhysicsSettings.polygonRadius
        // Incident edge: the edge of poly2 most anti-parallel to the reference normal.
        let refNormalIn2 = xf2.q.applyInverse(xf1.q.apply(poly1.normals[edge1]))
        let n2 = poly2.count
        var inc = 0, minDot = Double.greatestFiniteMagnitude
        for i in 0..<n2 {
            let d = dot(refNormalIn2, poly2.normals[i])
            if d < minDot { minDot = d; inc = i }
        }
        let inc2 = inc + 1 < n2 ? inc + 1 : 0
        let ia = ClipVertex(v: xf2.apply(poly2.vertices[inc]), id: featureID(edge1, inc, featureFace, featureVertex))
        let ib = ClipVertex(v: xf2.apply(poly2.vertices[inc2]), id: featureID(edge1, inc2, featureFace, featureVertex))

        let n1 = poly1.count
        let iv1 = edge1, iv2 = edge1 + 1 < n1 ? edge1 + 1 : 0
        let v11 = poly1.vertices[iv1], v12 = poly1.vertices[iv2]
        let localTangent = (v12 - v11).normalized
        let localNormal = localTangent.rightPerp
        let planePoint = 0.5 * (v11 + v12)
        let tangent = xf1.q.apply(localTangent)
        let normal = tangent.rightPerp
        let w11 = xf1.apply(v11), w12 = xf1.apply(v12)
        let front = dot(normal, w11)
        let side1 = -dot(tangent, w11) + totalR
        let side2 = dot(tangent, w12) + totalR

        let (c0, c1, k1) = clip(ia, ib, normal: -tangent, offset: side1, vertexIndex: iv1)
        if k1 < 2 { return Manifold() }
        let (d0, d1, k2) = clip(c0, c1, normal: tangent, offset: side2, vertexIndex: iv2)
        if k2 < 2 { return Manifold() }

        var m = Manifold()
        m.type = flip ? .faceB : .faceA
        m.localNormal = localNormal
        m.localPoint = planePoint
        for k in 0..<2 {
            let cv = k == 0 ? d0 : d1
            let sep = dot(normal, cv.v) - front
            if sep <= totalR + margin {
                let p = ManifoldPoint(localPoint: xf2.applyInverse(cv.v), id: flip ? flipID(cv.id) : cv.id)
                m[m.pointCount] = p
                m.pointCount += 1
            }
        }
        return m
    }
}

/// A manifold evaluated at the current transforms: world normal (A → B), points and separations.
struct WorldManifold {
    var normal: Vec2 = .zero
    var point0: Vec2 = .zero
    var point1: Vec2 = .zero
    var separation0 = 0.0
    var separation1 = 0.0

    init(_ m: Manifold, _ xfA: Transform, _ rA: Double, _ xfB: Transform, _ rB: Double) {
        guard m.pointCount > 0 else { return }
        switch m.type {
        case .circles:
            let a = xfA.apply(m.localPoint), b = xfB.apply(m.p0.localPoint)
            normal = distanceSquared(a, b) > 1e-20 ? (b - a).normalized : Vec2(1, 0)
            let ca = a + rA * normal, cb = b - rB * normal
            point0 = 0.5 * (ca + cb)
            separation0 = dot(cb - ca, normal)
        case .faceA:
            normal = xfA.q.apply(m.localNormal)
            let plane = xfA.apply(m.localPoint)
            for i in 0..<m.pointCount {
                let clipPoint = xfB.apply(m[i].localPoint)
                let ca = clipPoint + (rA - dot(clipPoint - plane, normal)) * normal
                let cb = clipPoint - rB * normal
                set(i, 0.5 * (ca + cb), dot(cb - ca, normal))
            }
        case .faceB:
            normal = xfB.q.apply(m.localNormal)
            let plane = xfB.apply(m.localPoint)
            for i in 0..<m.pointCount {
                let clipPoint = xfA.apply(m[i].localPoint)
                let cb = clipPoint + (rB - dot(clipPoint - plane, normal)) * normal
                let ca = clipPoint - rA * normal
                set(i, 0.5 * (ca + cb), dot(ca - cb, normal))
            }
            normal = -normal
        }
    }

    private mutating func set(_ i: Int, _ p: Vec2, _ s: Double) {
        if i == 0 { point0 = p; separation0 = s } else { point1 = p; separation1 = s }
    }
}
