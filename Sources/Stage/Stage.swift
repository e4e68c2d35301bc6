// The root of the display tree (Sparrow's SPStage): its size is the coordinate system the host
// scales to the canvas, its colour the background. Each frame the game calls `advance(time:)`
// (queued touches, the default juggler, enter-frame to every node) and `render(into:)`.

/// The display tree's root.
open class Stage: DisplayObjectContainer {
    /// The stage's size in points (the game's coordinate system).
    public var stageWidth: Double
    public var stageHeight: Double
    /// The background (`0xRRGGBBAA`), written as the draw list's first command (a quad covering
    /// the stage) unless its alpha is 0.
    public var backgroundColor: UInt32
    /// The default juggler, advanced by `advance(time:)` before the enter-frame events.
    public let juggler = Juggler()
    /// Turns the host's touch inputs into touch events (`queueTouch`).
    public let touchProcessor = TouchProcessor()
    /// Seconds of stage time (the sum of `advance(time:)`'s arguments).
    public private(set) var elapsedTime = 0.0

    let enterFrameEvent = EnterFrameEvent(passedTime: 0)
    var enterFrameTargets: [DisplayObject] = []

    public init(width: Double, height: Double, color: UInt32 = Color.black) {
        stageWidth = width; stageHeight = height; backgroundColor = color
        super.init()
    }

    /// Queues a touch input (stage points) for the next `advance(time:)`.
    public func queueTouch(id: Int32, phase: TouchPhase, x: Double, y: Double) {
        touchProcessor.enqueue(id: id, phase: phase, x: x, y: y)
    }

    /// One frame: applies the queued touches (dispatching touch events), advances `juggler`,
    /// then dispatches an
    /// `EnterFrameEvent` with `time` (seconds; negative counts as 0) to every node that listens
    /// for it, parents before children in painting order (the nodes are collected before the
    /// first dispatch: a node added during the frame gets its first event next frame).
    open func advance(time: Double) {
        let dt = time > 0 ? time : 0
        elapsedTime += dt
        touchProcessor.time = elapsedTime
        touchProcessor.process(on: self)
        juggler.advance(time: dt)
        enterFrameTargets.removeAll(keepingCapacity: true)
        collectEnterFrame(self)
        enterFrameEvent.passedTime = dt
        for t in enterFrameTargets { t.dispatchEvent(enterFrameEvent) }
        enterFrameTargets.removeAll(keepingCapacity: true)
        enterFrameEvent.target = nil
    }

    final func collectEnterFrame(_ o: DisplayObject) {
        if o.hasEventListener(EventType.enterFrame) { enterFrameTargets.append(o) }
        if let c = o as? DisplayObjectContainer {
            for child in c.children { collectEnterFrame(child) }
        }
    }

    /// Writes the frame into `list` (emptied first): the background, then every visible object
    /// with alpha > 0 in painting order, each with its transform to stage space and the product
    /// of its ancestors' alphas and its own.
    public func render(into list: inout DrawList) {
        list.begin()
        if backgroundColor & 0xFF != 0 {
            let c = backgroundColor
            list.addQuad(matrix: .identity, alpha: 1, width: stageWidth, height: stageHeight, colors: (c, c, c, c))
        }
        guard visible, alpha > 0 else { return }
        render(into: &list, matrix: transformationMatrix, alpha: alpha)
    }

    /// Children first; where none is hit, the stage itself inside its area.
    open override func hitTest(_ localPoint: Point) -> DisplayObject? {
        guard visible, touchable else { return nil }
        if let hit = super.hitTest(localPoint) { return hit }
        return Rectangle(x: 0, y: 0, width: stageWidth, height: stageHeight).contains(localPoint) ? self : nil
    }
}
