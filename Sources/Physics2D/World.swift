// The world: bodies, the broad phase, contacts, stepping and events.

/// A 2D physics world. Not thread-safe: use it from one thread (or actor) at a time.
///
/// ```swift
/// let world = World(gravity: Vec2(0, -10))
/// let ground = world.createBody(BodyDef(type: .static))
/// world.createShape(on: ground, ShapeDef(.box(halfWidth: 20, halfHeight: 0.5)))
/// let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 4)))
/// world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5), restitution: 0.5))
/// world.onBeginContact = { event in print("touch", event.shapeA.id, event.shapeB.id) }
/// for _ in 0..<60 { world.step(1.0 / 60) }
/// ```
public final class World {
    public var gravity: Vec2
    /// Velocity iterations of the contact solver (Box2D 2.x's default is 8; negative counts as 0).
    public var velocityIterations = 8 { didSet { if velocityIterations < 0 { velocityIterations = 0 } } }
    /// Position (overlap-removal) iterations (Box2D 2.x's default is 3; negative counts as 0).
    public var positionIterations = 3 { didSet { if positionIterations < 0 { positionIterations = 0 } } }
    /// Warm starting: reuse last step's impulses as the first guess.
    public var warmStarting = true
    /// Which contact solver steps the world: the soft step by default (docs/physics.md, "Soft
    /// step"); `.legacy` is kept for comparison and for the games, whose replay logs were
    /// recorded with it. Switching between steps is allowed.
    public var solverKind = SolverKind.softStep
    /// Sub-steps of the soft-step solver per step (Box2D v3's default is 4; at least 1). The
    /// iteration counts above belong to the legacy solver and are not used by the soft step.
    public var softSubSteps = 4 { didSet { if softSubSteps < 1 { softSubSteps = 1 } } }
    /// Soft step: shapes up to this far apart (m) already have contact points (speculative
    /// points, as Box2D v3's), so a contact pushed out to exactly touching stays from step to
    /// step instead of coming and going. Begin and end events come at this distance too (not
    /// for sensors, which report overlaps). Default `PhysicsSettings.speculativeDistance`;
    /// at least 0. The legacy solver does not use it.
    public var speculativeDistance = PhysicsSettings.speculativeDistance {
        didSet { if !(speculativeDistance >= 0) { speculativeDistance = 0 } }
    }
    /// Soft step: the contacts' spring frequency (Hz) between two moving bodies (twice that
    /// against a body that does not move), capped at a quarter of the sub-step rate — Box2D
    /// v3's `contactHertz`, default `PhysicsSettings.contactHertz` (30). A contact's stiffness
    /// is its effective mass times (2π·hertz)², so a light body carrying a much heavier one
    /// sinks into it; raise this, with more `softSubSteps` to lift the cap, for stiff stacks
    /// of unequal masses (docs/physics.md, "Soft step"). At least 0 (0: no push-out bias).
    public var contactHertz = PhysicsSettings.contactHertz {
        didSet { if !(contactHertz >= 0) { contactHertz = 0 } }
    }
    /// The frequency the soft step's contacts get in a step of `dt` seconds: `contactHertz`,
    /// capped at a quarter of the sub-step rate (`softSubSteps` sub-steps per step).
    public func effectiveContactHertz(step dt: Double) -> Double {
        min(contactHertz, 0.25 * (1 / (dt / Double(softSubSteps))))
    }
    /// The soft step solves its coloured contacts four at a time in SIMD lanes; false solves
    /// them one at a time in the same order (the same results to the last bit: for tests).
    var softLanes = true
    /// Sleeping islands: bodies that have rested for `PhysicsSettings.timeToSleep` stop being
    /// simulated until something wakes them. Setting false wakes every body.
    public var allowSleep: Bool {
        get { allowSleepValue }
        set {
            allowSleepValue = newValue
            if !newValue { for b in bodies { b.wake() } }
        }
    }
    private var allowSleepValue = true
    /// Continuous collision (Box2D's `enableContinuous`): a fast dynamic body (one that moved
    /// more than its smallest extent in a step) or a bullet is swept against static shapes (a
    /// bullet also against dynamic bodies) and stopped at the first time of impact instead of
    /// tunnelling through thin walls. Costs one comparison per awake dynamic body per step
    /// when nothing is fast.
    public var continuousCollision = true
    /// Scratch of the continuous pass: fast bodies with their pose before the step.
    var sweeps: [Sweep] = []
    /// Diagnostics: bodies swept and times of impact applied since the world was made.
    var sweptCount = 0, impactCount = 0

    /// Called once when two shapes start touching (sensors: overlapping), after the step; the
    /// event carries the normal, the points and the approach speed (see `ContactEvent`).
    public var onBeginContact: ((ContactEvent) -> Void)?
    /// Called once when they stop touching, or when one of them leaves the world while touching.
    public var onEndContact: ((ContactEvent) -> Void)?
    /// Called after every step for each touching, non-sensor contact with an awake body, with
    /// the normal and tangent impulses the solver applied in that step (see `PostSolveEvent`).
    /// Delivered after the step's begin/end events, with the world locked. Costs nothing when nil.
    public var onPostSolve: ((PostSolveEvent) -> Void)?

    /// Bodies in creation order (removed bodies are taken out).
    public private(set) var bodies: [Body] = []
    /// Joints in creation order.
    public private(set) var joints: [Joint] = []
    /// True while the world is stepping or delivering events; removals are then deferred.
    public private(set) var isLocked = false
    /// Number of steps taken.
    public private(set) var stepCount = 0

    let tree = DynamicTree()
    /// The static shapes again, alone (each leaf's data is the shape's proxy in `tree`): the
    /// continuous pass sweeps a fast non-bullet body against static shapes only, and in the
    /// main tree the query walked every dynamic body the swept box overlaps (Box2D v3 keeps a
    /// tree per body type for the same reason).
    let staticTree = DynamicTree()
    private(set) var proxyShapes: [Shape?] = []
    private var proxyMoved: [Bool] = []
    private var moveBuffer: [Int32] = []
    private var pairBuffer: [(Int32, Int32)] = []
    private(set) var contacts: [Contact] = []
    private var contactMap: [UInt64: Contact] = [:]
    /// Set when contacts were added or removed: the array is re-sorted by key before solving.
    private var contactsDirty = false
    private var nextBodyId = 0
    private var nextShapeId = 0
    private var pendingRemovals: [Body] = []
    private var pendingEvents: [(begin: Bool, event: ContactEvent)] = []
    /// Post-solve events of the current step (only filled while `onPostSolve` is set).
    var pendingPostSolve: [PostSolveEvent] = []
    private let solverBodies = SolverBodies()
    private var solver = ContactSolver()
    /// The soft step's contact solver; between steps it holds the last step's constraints
    /// and colours (read by tests).
    private(set) var softSolver = SoftContactSolver()
    /// The next soft step walks its constraints backwards (it alternates; see `solveSoft`).
    private var softBackwards = false
    private var softAccel: [SoftAcceleration] = []
    private var isStatic: [Bool] = []
    /// Island roots of the current step (body indices), for the sleep check after solving.
    private var islandRoots: [Int] = []
    private var islandMinSleep: [Double] = []

    /// How many threads solve the soft step's contacts (the caller and `workers - 1` threads
    /// of the world's own pool, started here and joined when the world goes). Results are the
    /// same bits for any count. The legacy solver, and the WebAssembly build, use one.
    public let workers: Int

    /// A world; `workers` (1...64, default 1) threads for the soft step (see `workers`).
    public init(gravity: Vec2 = Vec2(0, -10), workers: Int = 1) {
        self.gravity = gravity
        #if hasFeature(Embedded)
        self.workers = 1
        #else
        self.workers = min(max(workers, 1), 64)
        if self.workers > 1 { pool = WorkerPool(count: self.workers) }
        #endif
    }

    #if !hasFeature(Embedded)
    private var pool: WorkerPool?
    private let contactStage = SoftContactStage()
    private let narrowStage = NarrowPhaseStage()
    private let integrationStage = SoftIntegrationStage()
    private let prepareStage = SoftPrepareStage()
    /// What the world's worker threads hold (nil without workers): freed once they have ended.
    var workerSharedState: AnyObject? { pool?.sharedState }
    /// The smallest colour (in bundles of four) that the workers split (tests lower it).
    var softParallelMinimumBundles: Int {
        get { contactStage.minimumBundles }
        set { contactStage.minimumBundles = max(1, newValue) }
    }
    /// The fewest bodies whose sub-step loops the workers split (tests lower it).
    var softParallelMinimumBodies: Int {
        get { integrationStage.minimumBodies }
        set { integrationStage.minimumBodies = max(1, newValue) }
    }
    /// The fewest contact constraints whose building the workers split (tests lower it).
    var softParallelMinimumConstraints: Int {
        get { prepareStage.minimumConstraints }
        set { prepareStage.minimumConstraints = max(1, newValue) }
    }
    #endif

    // Bodies the caller still holds must not point at a freed world (`Body.world` is
    // `unowned(unsafe)`, not `weak`: Embedded Swift has no weak references).
    deinit { for b in bodies { b.world = nil } }

    /// Number of live contacts (pairs with overlapping fat boxes).
    public var contactCount: Int { contacts.count }
    /// Number of contacts currently touching.
    public var touchingCount: Int { contacts.reduce(0) { $0 + ($1.touching ? 1 : 0) } }

    // MARK: bodies and shapes

    /// Adds a body. Allowed inside callbacks (the body joins at once; it is not stepped until the next step).
    @discardableResult
    public func createBody(_ def: BodyDef) -> Body {
        let b = Body(def: def)
        b.world = self
        b.id = nextBodyId; nextBodyId += 1
        b.index = bodies.count
        bodies.append(b)
        return b
    }

    /// Attaches a shape to a body; the body's mass is recomputed.
    @discardableResult
    public func createShape(on body: Body, _ def: ShapeDef) -> Shape {
        precondition(body.world === self, "the body is not in this world")
        let s = Shape(def: def, body: body)
        insertShape(s, on: body)
        return s
    }

    /// Gives a new shape its id, attaches it to the body and enters it in the broad phase.
    func insertShape(_ s: Shape, on body: Body) {
        s.id = nextShapeId; nextShapeId += 1
        body.attach(s)
        let box = s.geometry.aabb(body.xf)
        let proxy = tree.createProxy(box, data: Int32(s.id))
        s.proxyId = proxy
        let p = Int(proxy)
        while proxyShapes.count <= p { proxyShapes.append(nil); proxyMoved.append(false) }
        proxyShapes[p] = s
        markMoved(proxy)
        if body.type == .static {
            s.staticProxyId = staticTree.createProxy(box, data: proxy)
        }
    }

    /// Removes a body with its shapes and contacts. Inside a step or a callback the
    /// removal is deferred until the callbacks are done; end events are reported for
    /// contacts that were touching.
    public func removeBody(_ body: Body) {
        guard body.world === self, !body.isRemoved else { return }
        if isLocked {
            if !pendingRemovals.contains(where: { $0 === body }) { pendingRemovals.append(body) }
            return
        }
        destroy(body)
        deliverEvents()
    }

    /// Pins two bodies together (see `RevoluteJointDef`).
    @discardableResult
    public func createRevoluteJoint(_ def: RevoluteJointDef) -> RevoluteJoint {
        addJoint(RevoluteJoint(def))
    }

    /// Registers a new joint: wakes its bodies and, unless it lets them collide, drops
    /// the contacts between them. (Every `createXJoint` goes through here.)
    func addJoint<J: Joint>(_ j: J) -> J {
        precondition(j.bodyA.world === self && j.bodyB.world === self, "both bodies must be in this world")
        j.index = joints.count
        joints.append(j)
        j.bodyA.joints.append(j)
        if j.bodyB !== j.bodyA { j.bodyB.joints.append(j) }
        j.bodyA.wake(); j.bodyB.wake()
        if !j.collideConnected {
            var i = 0
            while i < contacts.count {
                let c = contacts[i]
                if (c.bodyA === j.bodyA && c.bodyB === j.bodyB) || (c.bodyA === j.bodyB && c.bodyB === j.bodyA) {
                    destroyContact(c)
                } else { i += 1 }
            }
        }
        return j
    }

    /// Removes a joint (at once; joints have no events) and wakes its bodies.
    public func removeJoint(_ joint: Joint) {
        guard joint.index >= 0, joint.index < joints.count, joints[joint.index] === joint else { return }
        joints.remove(at: joint.index)
        for (k, j) in joints.enumerated() { j.index = k }
        joint.index = -1
        joint.bodyA.joints.removeAll { $0 === joint }
        joint.bodyB.joints.removeAll { $0 === joint }
        joint.bodyA.wake(); joint.bodyB.wake()
    }

    /// Whether a joint between the two bodies turns their collisions off.
    private func jointKeepsApart(_ a: Body, _ b: Body) -> Bool {
        let (small, other) = a.joints.count <= b.joints.count ? (a, b) : (b, a)
        for j in small.joints where !j.collideConnected && (j.bodyA === other || j.bodyB === other) { return true }
        return false
    }

    private func destroy(_ body: Body) {
        body.isRemoved = true
        for j in body.joints { removeJoint(j) }
        // Contacts, in their current order so the result is deterministic.
        var i = 0
        while i < contacts.count {
            let c = contacts[i]
            if c.bodyA === body || c.bodyB === body {
                // Whatever rested on (or under) the body must move again.
                if c.touching && !c.isSensor { c.bodyA.wake(); c.bodyB.wake() }
                destroyContact(c)
            } else { i += 1 }
        }
        for s in body.shapes where s.proxyId >= 0 {
            let p = Int(s.proxyId)
            tree.destroyProxy(s.proxyId)
            proxyShapes[p] = nil
            if s.staticProxyId >= 0 {
                staticTree.destroyProxy(s.staticProxyId)
                s.staticProxyId = -1
            }
            if proxyMoved[p] {
                proxyMoved[p] = false
                moveBuffer.removeAll { $0 == s.proxyId }
            }
            s.proxyId = -1
        }
        bodies.remove(at: body.index)
        for k in body.index..<bodies.count { bodies[k].index = k }
        body.index = -1
        body.world = nil
    }

    func bodyMoved(_ body: Body) {
        for s in body.shapes where s.proxyId >= 0 {
            let box = s.aabb(body.xf)
            if tree.moveProxy(s.proxyId, tight: box) { markMoved(s.proxyId) }
            if s.staticProxyId >= 0 { staticTree.moveProxy(s.staticProxyId, tight: box) }
        }
    }

    func shape(forProxy proxy: Int32) -> Shape? { proxyShapes[Int(proxy)] }

    func markMoved(_ proxy: Int32) {
        if !proxyMoved[Int(proxy)] {
            proxyMoved[Int(proxy)] = true
            moveBuffer.append(proxy)
        }
    }

    // MARK: stepping

    /// Advances the world by `dt` seconds, split into `subSteps` equal steps.
    public func step(_ dt: Double, subSteps: Int = 1) {
        precondition(!isLocked, "step() called from inside a callback")
        let n = max(1, subSteps)
        for _ in 0..<n { singleStep(dt / Double(n)) }
    }

    private func singleStep(_ dt: Double) {
        isLocked = true
        findNewContacts()
        updateContacts()
        if dt > 0 { solve(dt) }
        findNewContacts()
        stepCount += 1
        isLocked = false
        deliverEvents()
    }

    /// Broad phase: pairs for every proxy that moved since the last call.
    private func findNewContacts() {
        guard !moveBuffer.isEmpty else { return }
        // Local arrays in the loops (swapped out of the world): no exclusivity check per pair.
        var pairs: [(Int32, Int32)] = []
        swap(&pairs, &pairBuffer)
        defer { swap(&pairs, &pairBuffer) }
        pairs.removeAll(keepingCapacity: true)
        var moved: [Bool] = []
        swap(&moved, &proxyMoved)
        let tree = self.tree
        for q in moveBuffer {
            let fat = tree.fatAABB(q)
            moved.withUnsafeBufferPointer { moved in
                tree.queryUnchanging(fat) { p in
                    if p == q { return }
                    if moved[Int(p)] && p < q { return }  // the other proxy's query reports it
                    pairs.append((q, p))
                }
            }
        }
        for q in moveBuffer { moved[Int(q)] = false }
        swap(&moved, &proxyMoved)
        moveBuffer.removeAll(keepingCapacity: true)
        for (pa, pb) in pairs {
            guard let sa = proxyShapes[Int(pa)], let sb = proxyShapes[Int(pb)],
                  let ba = sa.body, let bb = sb.body, ba !== bb else { continue }
            guard ba.type == .dynamic || bb.type == .dynamic else { continue }
            guard Filter.shouldCollide(sa.filter, sb.filter) else { continue }
            if !ba.joints.isEmpty && !bb.joints.isEmpty && jointKeepsApart(ba, bb) { continue }
            let lo = min(sa.id, sb.id), hi = max(sa.id, sb.id)
            let key = UInt64(lo) << 32 | UInt64(hi)
            if contactMap[key] != nil { continue }
            let (first, second) = sa.id < sb.id ? (sa, sb) : (sb, sa)
            let c = Contact(first, second, key: key)
            c.index = contacts.count
            contacts.append(c)
            contactMap[key] = c
            contactsDirty = true
        }
    }

    private func destroyContact(_ c: Contact) {
        if c.touching {
            pendingEvents.append((false, ContactEvent(shapeA: c.shapeA, shapeB: c.shapeB, isSensor: c.isSensor)))
        }
        contactMap[c.key] = nil
        let i = c.index
        let last = contacts.count - 1
        if i != last {
            contacts[i] = contacts[last]
            contacts[i].index = i
        }
        contacts.removeLast()
        c.index = -1
        contactsDirty = true
    }

    /// Narrow phase: drop pairs whose fat boxes separated, update manifolds, queue events.
    private func updateContacts() {
        var parallel = false
        // The soft step pushes overlapping shapes out to exactly touching, where a contact
        // without a margin would come and go every other step (the 1,000-body pile never came
        // to rest); Box2D v3 keeps speculative points for the same reason.
        let margin = solverKind == .softStep ? speculativeDistance : 0
        #if !hasFeature(Embedded)
        // With workers, the manifolds are computed first on every thread (each contact's update
        // reads its bodies and writes only itself); the loop below then acts on the findings in
        // the serial order, so events, wakes and destroyed contacts are exactly the serial ones.
        if let pool, contacts.count >= NarrowPhaseStage.minimumContacts {
            narrowStage.contacts = contacts
            narrowStage.tree = tree
            narrowStage.margin = margin
            pool.run(narrowStage)
            narrowStage.contacts = []
            parallel = true
        }
        #endif
        var i = 0
        while i < contacts.count {
            unowned(unsafe) let c = contacts[i]  // the array keeps it alive; no retain
            // A contact the threads found asleep is looked at again: a contact earlier in this
            // loop may have woken one of its bodies since.
            let found = parallel && c.pending != .asleep && c.pending != .none ? c.pending : c.refresh(tree, margin: margin)
            c.pending = .none
            switch found {
            case .separated:
                destroyContact(contacts[i])  // a strong reference: destroying it drops the array's
                continue
            case .changed:
                // A contact that starts or stops touching wakes both bodies (Box2D does the same).
                if !c.isSensor { c.bodyA.wake(); c.bodyB.wake() }
                pendingEvents.append((c.touching, contactEvent(c, begin: c.touching)))
            case .asleep, .same, .none:
                // Nothing moves between two sleeping (or a sleeping and a static) bodies.
                break
            }
            i += 1
        }
    }

    private func solve(_ dt: Double) {
        if contactsDirty {
            // Solve contacts in the order of their shapes' creation ids, not in the order the
            // broad phase happened to find them: the result no longer depends on the tree's
            // history, and for stacks built bottom-up it is also the order in which
            // Gauss–Seidel converges best (the 40-row pyramid stands because of it).
            // Swift's sort is adaptive, so re-sorting a nearly sorted array is cheap.
            contacts.sort { $0.key < $1.key }
            for (i, c) in contacts.enumerated() { c.index = i }
            contactsDirty = false
        }
        let sleeping = allowSleepValue
        if sleeping { buildIslands() }
        let g = gravity
        let soft = solverKind == .softStep
        let h = dt / Double(softSubSteps)
        do {
            // Built in locals (swapped out of the world): no exclusivity check per append.
            let solverBodies = self.solverBodies
            var isStatic: [Bool] = [], softAccel: [SoftAcceleration] = []
            swap(&isStatic, &self.isStatic)
            swap(&softAccel, &self.softAccel)
            solverBodies.removeAll()
            isStatic.removeAll(keepingCapacity: true)
            softAccel.removeAll(keepingCapacity: true)
            for k in 0..<bodies.count {
                unowned(unsafe) let b = bodies[k]  // the array keeps it alive; no retain
                var v = b.v, w = b.w
                if soft {
                    // The soft step integrates per sub-step: what each body gains per second, and its
                    // damping per sub-step (nothing for bodies that are not integrated).
                    softAccel.append(b.type == .dynamic && b.awake
                        ? SoftAcceleration(linear: b.gravityScaleValue * g + b.invMassValue * b.force,
                                           angular: b.invI * b.torque,
                                           linearDamping: 1 / (1 + h * b.linearDampingValue),
                                           angularDamping: 1 / (1 + h * b.angularDampingValue))
                        : SoftAcceleration())
                } else if b.type == .dynamic && b.awake {
                    v += dt * (b.gravityScaleValue * g + b.invMassValue * b.force)
                    w += dt * b.invI * b.torque
                    v = (1 / (1 + dt * b.linearDampingValue)) * v
                    w *= 1 / (1 + dt * b.angularDampingValue)
                }
                solverBodies.append(SolverBody(v: v, w: w, c: b.center, a: b.angleValue, q: b.xf.q))
                isStatic.append(!b.awake)  // static or sleeping: not integrated
            }
            swap(&isStatic, &self.isStatic)
            swap(&softAccel, &self.softAccel)
        }
        if soft {
            solveSoft(dt, sleeping: sleeping)
            finishSolve(dt, sleeping: sleeping)
            return
        }
        let velocityIterations = self.velocityIterations, positionIterations = self.positionIterations
        let warm = warmStarting
        let reportImpulses = onPostSolve != nil
        let contacts = self.contacts
        // Joints between two bodies that are not awake (sleeping or static) are left out.
        let joints = sleeping ? self.joints.filter { $0.bodyA.awake || $0.bodyB.awake } : self.joints
        let isStatic = self.isStatic
        // Work on a local solver (swapped out, so its arrays stay uniquely referenced):
        // no exclusivity checks on the world's stored property inside the loops.
        var solver = ContactSolver()
        swap(&solver, &self.solver)
        defer { swap(&solver, &self.solver) }
        do {
            let sb = solverBodies.buffer
            solver.prepare(contacts, sb, warmStart: warm)
            for j in joints { j.prepare(sb, dt: dt, warmStart: warm, subStepped: false) }
            if warm { solver.warmStart(sb) }
            for _ in 0..<velocityIterations {
                for j in joints { j.solveVelocity(sb) }
                solver.solveVelocity(sb)
            }
            storeImpulses(solver.constraints, contacts)
            if reportImpulses { queuePostSolve(solver.constraints, contacts) }
            // Integrate positions, clamping absurd motions.
            for k in 0..<sb.count where !isStatic[k] {
                var v = sb[k].v, w = sb[k].w
                let t = dt * v
                if t.lengthSquared > PhysicsSettings.maxTranslation * PhysicsSettings.maxTranslation {
                    v = (PhysicsSettings.maxTranslation / t.length) * v
                }
                let r = dt * w
                if r * r > PhysicsSettings.maxRotation * PhysicsSettings.maxRotation {
                    w *= PhysicsSettings.maxRotation / abs(r)
                }
                sb[k].v = v; sb[k].w = w
                sb[k].c += dt * v
                if w != 0 {  // a body that does not turn keeps its rotation (no sin/cos)
                    sb[k].a += dt * w
                    sb[k].q = Rot(angle: sb[k].a)
                }
            }
            for _ in 0..<positionIterations {
                var done = solver.solvePositions(sb)
                for j in joints { done = j.solvePosition(sb) && done }
                if done { break }
            }
        }
        finishSolve(dt, sleeping: sleeping)
    }

    /// The soft step (`SolverKind.softStep`; see SoftSolver.swift): `softSubSteps` sub-steps of
    /// integrate velocities, warm start, soft solve, integrate positions and relax; then
    /// restitution. Joints are solved at the sub-step rate by their own velocity solver
    /// (prepared, warm started and solved twice per sub-step), and their remaining position
    /// error is removed by their position pass (`positionIterations`) in every sub-step.
    private func solveSoft(_ dt: Double, sleeping: Bool) {
        let n = softSubSteps
        let h = dt / Double(n), invH = 1 / h
        let hertz = effectiveContactHertz(step: dt)
        let warm = warmStarting
        let reportImpulses = onPostSolve != nil
        let contacts = self.contacts
        let joints = sleeping ? self.joints.filter { $0.bodyA.awake || $0.bodyB.awake } : self.joints
        let isStatic = self.isStatic
        let accel = softAccel
        let positionIterations = self.positionIterations
        var solver = SoftContactSolver()
        swap(&solver, &self.softSolver)
        defer { swap(&solver, &self.softSolver) }
        do {
            let sb = solverBodies.buffer
            prepareContacts(&solver, contacts, sb, SoftContactSolver.PrepareInputs(
                warmStart: warm, hertz: hertz, zeta: PhysicsSettings.contactDampingRatio, h: h))
            solver.colour(bodyCount: sb.count, lanes: softLanes)
            // Every other step walks the colours from the last to the first: Gauss–Seidel in
            // one fixed order leans a stack towards one side, step after step (pyramid40's
            // top drifted 0.16 m; alternating, 0.056 m).
            solver.backwards = softBackwards
            softBackwards.toggle()
            // The legacy clamps, as speeds: at most `maxTranslation` and `maxRotation` per step.
            let maxV = PhysicsSettings.maxTranslation / dt, maxW = PhysicsSettings.maxRotation / dt
            isStatic.withUnsafeBufferPointer { isStatic in
                accel.withUnsafeBufferPointer { accel in  // pointers: no check per body
                    let inputs = SoftIntegration.Inputs(isStatic: isStatic, accel: accel, h: h, maxV: maxV, maxW: maxW)
                    for step in 0..<n {
                        integrationPass(.velocities, sb, inputs)
                        for j in joints { j.prepare(sb, dt: h, warmStart: warm || step > 0, subStepped: true) }
                        if warm || step > 0 { contactPass(.warmStart, &solver, sb) }
                        for j in joints { j.solveVelocity(sb) }
                        contactPass(.solve, &solver, sb, invH: invH, useBias: true)
                        integrationPass(.positions, sb, inputs)
                        // The joints' remaining position error, at the sub-step rate.
                        for _ in 0..<positionIterations {
                            var done = true
                            for j in joints { done = j.solvePosition(sb) && done }
                            if done { break }
                        }
                        for j in joints { j.solveVelocity(sb) }
                        contactPass(.solve, &solver, sb, invH: invH, useBias: false)
                        if reportImpulses { solver.accumulateTotals() }
                    }
                }
            }
            solver.unloadWide()
            solver.applyRestitution(sb)
            storeImpulses(solver.constraints, contacts)
            if reportImpulses { queuePostSolve(solver.constraints, contacts) }
        }
    }

    /// The soft step's constraints, built on the worker pool when there is one.
    @inline(__always)
    private func prepareContacts(_ solver: inout SoftContactSolver, _ contacts: [Contact],
                                 _ sb: UnsafeMutableBufferPointer<SolverBody>, _ inputs: SoftContactSolver.PrepareInputs) {
        #if !hasFeature(Embedded)
        if let pool {
            prepareStage.prepare(&solver, contacts, sb, inputs, pool: pool)
            return
        }
        #endif
        solver.prepare(contacts, sb, inputs)
    }

    /// One of the soft step's body loops of a sub-step, on the worker pool when there is one
    /// and the bodies are many.
    @inline(__always)
    private func integrationPass(_ kind: SoftIntegration.Kind, _ sb: UnsafeMutableBufferPointer<SolverBody>,
                                 _ inputs: SoftIntegration.Inputs) {
        #if !hasFeature(Embedded)
        if let pool, sb.count >= integrationStage.minimumBodies {
            integrationStage.run(kind, sb, inputs, pool: pool)
            return
        }
        #endif
        SoftIntegration.run(kind, 0..<sb.count, sb, inputs)
    }

    /// One pass of the soft step over the contacts, the warm start or a solve: the coloured
    /// constraints on the worker pool when there is one (the solver places the overflow).
    @inline(__always)
    private func contactPass(_ kind: SoftContactSolver.Pass, _ solver: inout SoftContactSolver,
                             _ sb: UnsafeMutableBufferPointer<SolverBody>, invH: Double = 0, useBias: Bool = false) {
        #if !hasFeature(Embedded)
        if let pool {
            let stage = contactStage
            solver.pass(kind, sb, invH: invH, useBias: useBias) {
                stage.run(kind, &$0, sb, invH: invH, useBias: useBias, pool: pool)
            }
            return
        }
        #endif
        switch kind {
        case .warmStart: solver.warmStart(sb)
        case .solve: solver.solve(sb, invH: invH, useBias: useBias)
        }
    }

    /// After either solver: the continuous pass, writing the solver's bodies back, moving the
    /// broad-phase proxies, and sleep.
    private func finishSolve(_ dt: Double, sleeping: Bool) {
        let solverBodies = self.solverBodies.buffer, bodies = self.bodies  // locals: no check per read
        if continuousCollision { findFastBodies(solverBodies, share: solverKind == .softStep ? 0.5 : 1) }
        // Write back, refresh transforms, and move the broad-phase proxies.
        for k in 0..<bodies.count {
            unowned(unsafe) let b = bodies[k]  // the array keeps it alive; no retain
            if !b.awake { continue }  // static or sleeping
            let s = solverBodies[k]
            let displacement = s.c - b.center
            b.v = s.v; b.w = s.w
            b.center = s.c; b.angleValue = s.a
            let q = s.q
            b.xf = Transform(p: s.c - q.apply(b.localCenter), q: q)
            b.force = .zero; b.torque = 0
            for sh in b.shapeList {
                unowned(unsafe) let sh = sh
                if tree.moveProxy(sh.proxyId, tight: sh.aabb(b.xf), displacement: displacement) {
                    markMoved(sh.proxyId)
                }
            }
        }
        if !sweeps.isEmpty { solveContinuous() }
        if sleeping { updateSleep(dt) }
    }

    // MARK: sleeping islands

    private func findRoot(_ i: Int) -> Int {
        var r = i
        while bodies[r].islandParent != r { r = bodies[r].islandParent }
        var k = i
        while bodies[k].islandParent != r {
            let next = bodies[k].islandParent
            bodies[k].islandParent = r
            k = next
        }
        return r
    }

    private func union(_ a: Body, _ b: Body) {
        let ra = findRoot(a.index), rb = findRoot(b.index)
        if ra == rb { return }
        // The smaller index becomes the root: the result depends only on the body order.
        if ra < rb { bodies[rb].islandParent = ra } else { bodies[ra].islandParent = rb }
    }

    /// Groups the non-static bodies into islands (union–find over touching non-sensor contacts
    /// and joints; static bodies join none), then wakes every island that has an awake body.
    /// Sleeping islands stay whole, so a sleeping island touched by an awake body wakes entirely.
    private func buildIslands() {
        for k in 0..<bodies.count { bodies[k].islandParent = k }
        for c in contacts where c.touching && !c.isSensor {
            if c.bodyA.type == .static || c.bodyB.type == .static { continue }
            union(c.bodyA, c.bodyB)
        }
        for j in joints {
            if j.bodyA.type == .static || j.bodyB.type == .static { continue }
            union(j.bodyA, j.bodyB)
        }
        islandRoots.removeAll(keepingCapacity: true)
        islandMinSleep.removeAll(keepingCapacity: true)
        var awakeRoot = [Bool](repeating: false, count: bodies.count)
        for k in 0..<bodies.count {
            let r = findRoot(k)
            islandRoots.append(r)
            if bodies[k].awake { awakeRoot[r] = true }
        }
        for k in 0..<bodies.count where awakeRoot[islandRoots[k]] { bodies[k].wake() }
    }

    /// After solving: each awake body's sleep time grows while it is slow (reset otherwise);
    /// an island whose smallest sleep time reaches `timeToSleep` falls asleep as a whole.
    private func updateSleep(_ dt: Double) {
        let linTol2 = PhysicsSettings.linearSleepTolerance * PhysicsSettings.linearSleepTolerance
        let angTol2 = PhysicsSettings.angularSleepTolerance * PhysicsSettings.angularSleepTolerance
        islandMinSleep.removeAll(keepingCapacity: true)
        islandMinSleep.append(contentsOf: repeatElement(Double.infinity, count: bodies.count))
        for k in 0..<bodies.count {
            let b = bodies[k]
            guard b.awake else { continue }
            if !b.allowSleepValue || b.w * b.w > angTol2 || b.v.lengthSquared > linTol2 {
                b.sleepTime = 0
            } else {
                b.sleepTime += dt
            }
            let r = islandRoots[k]
            islandMinSleep[r] = min(islandMinSleep[r], b.sleepTime)
        }
        for k in 0..<bodies.count where bodies[k].awake {
            if islandMinSleep[islandRoots[k]] >= PhysicsSettings.timeToSleep { bodies[k].sleep() }
        }
    }

    /// Delivers queued events with the world locked (begin/end, then post-solve); removals
    /// requested by callbacks are carried out afterwards (and their end events delivered in turn).
    private func deliverEvents() {
        isLocked = true
        defer { isLocked = false }
        while !pendingEvents.isEmpty || !pendingPostSolve.isEmpty || !pendingRemovals.isEmpty {
            let events = pendingEvents
            pendingEvents.removeAll()
            for (begin, e) in events {
                if begin { onBeginContact?(e) } else { onEndContact?(e) }
            }
            if !pendingPostSolve.isEmpty { deliverPostSolve() }
            let removals = pendingRemovals
            pendingRemovals.removeAll()
            for b in removals where !b.isRemoved { destroy(b) }
        }
    }
}

extension World {
    /// Height of the broad-phase tree (diagnostics).
    public var treeHeight: Int { tree.height }
}
