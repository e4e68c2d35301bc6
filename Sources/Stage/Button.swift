// A button (Sparrow's SPButton): an image with optional text. A touch that begins on it presses
// it (the down-state image, or without one the contents shrink to 90 % about the centre); a
// touch that ends on it (within `maxDragDistance` of its bounds) releases it and dispatches
// `triggered`. Moving further away than that releases it without triggering.

/// A tappable image with optional text that dispatches `EventType.triggered`.
open class Button: DisplayObjectContainer {
    public var upState: TextureRegion { didSet { if !isDown { image.setTexture(upState) } } }
    public var downState: TextureRegion?
    /// How far (points, in the parent's space) a touch may wander outside the bounds and still
    /// count as on the button.
    public var maxDragDistance = 40.0
    /// Scale of the contents while pressed without a down state.
    public var downScale = 0.9
    /// A disabled button ignores touches.
    public var isEnabled = true
    public private(set) var isDown = false

    /// The image and the text field (if any) sit in this sprite, which shrinks when pressed.
    public let contents = Sprite()
    public let image: Image
    public private(set) var textField: TextField?

    public init(upState: TextureRegion, downState: TextureRegion? = nil, text: String? = nil,
                fontSize: Double = 16, textColor: UInt32 = Color.black, font: BitmapFont? = nil) {
        self.upState = upState; self.downState = downState
        image = Image(texture: upState)
        super.init()
        contents.addChild(image)
        if let text {
            let tf = TextField(width: upState.width, height: upState.height, text: text, fontSize: fontSize,
                               color: textColor, alignment: .center, font: font)
            tf.touchable = false
            contents.addChild(tf)
            textField = tf
        }
        addChild(contents)
        addEventListener(EventType.touch, as: TouchEvent.self) { [unowned(unsafe) self] event in
            self.handle(event)
        }
    }

    /// The text, if the button has a text field.
    public var text: String? {
        get { textField?.text }
        set { if let newValue { textField?.text = newValue } }
    }

    final func handle(_ event: TouchEvent) {
        guard isEnabled, let touch = event.touch(with: self) else { return }
        switch touch.phase {
        case .began:
            press()
        case .moved:
            if isDown && !isNear(touch) { release() }
        case .ended:
            if isDown {
                let inside = isNear(touch)
                release()
                if inside { dispatchEvent(Event(type: EventType.triggered, bubbles: true)) }
            }
        case .cancelled:
            if isDown { release() }
        case .stationary:
            break
        }
    }

    final func isNear(_ touch: Touch) -> Bool {
        // The unpressed area (pressing shrinks the contents).
        let b = transformationMatrix(to: nil).bounds(of: Rectangle(x: 0, y: 0, width: upState.width, height: upState.height))
        let m = maxDragDistance
        return Rectangle(x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m)
            .contains(Point(touch.globalX, touch.globalY))
    }

    final func press() {
        isDown = true
        if let downState {
            image.setTexture(downState)
        } else {
            let w = image.imageWidth, h = image.imageHeight
            contents.scaleX = downScale; contents.scaleY = downScale
            contents.x = (1 - downScale) / 2 * w
            contents.y = (1 - downScale) / 2 * h
        }
    }

    final func release() {
        isDown = false
        image.setTexture(upState)
        contents.scaleX = 1; contents.scaleY = 1
        contents.x = 0; contents.y = 0
    }
}
