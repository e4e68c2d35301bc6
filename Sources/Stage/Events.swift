// Events (Sparrow's SPEvent and SPEventDispatcher): listeners register by type string, an event
// dispatched on a display object that bubbles travels from its target up through every ancestor
// to the root, and a listener can stop it. Listeners are closures; adding one returns a token
// that removes it.
//
// Closures stored here are strong references: a listener that captures the object it listens
// to keeps that object alive (a cycle). Capture `[unowned(unsafe) self]` (no `weak` in these
// modules) when the listener lives on an object the closure's owner outlives.

/// The event types Stage itself dispatches.
public enum EventType {
    /// To every node with a listener, once per `Stage.advance(time:)`; an `EnterFrameEvent`. Does not bubble.
    public static let enterFrame = "enterFrame"
    /// To a display object just added to a container. Bubbles.
    public static let added = "added"
    /// To a display object and all its descendants when it joins a tree rooted in a `Stage`. Does not bubble.
    public static let addedToStage = "addedToStage"
    /// To a display object about to be removed from its container. Bubbles.
    public static let removed = "removed"
    /// To a display object and all its descendants when it leaves a tree rooted in a `Stage`
    /// (before it is detached). Does not bubble.
    public static let removedFromStage = "removedFromStage"
    /// To a touched object's target; a `TouchEvent`. Bubbles.
    public static let touch = "touch"
    /// By a `Button` when a touch that began on it ends inside it. Bubbles.
    public static let triggered = "triggered"
}

/// String equality by UTF-8 bytes: what event types need, without the Unicode normalisation
/// tables that `String ==` links in an Embedded build.
@inline(__always)
func sameType(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

/// An event: a type, whether it bubbles, the object it was dispatched on (`target`) and the one
/// whose listener is running (`currentTarget`). Subclass it for custom events with a payload,
/// or use `value` and `data` for small ones.
open class Event {
    /// The type listeners registered for.
    public let type: String
    /// True when the event travels up through the target's ancestors after the target.
    public let bubbles: Bool
    /// A number for custom events that need one (a score, an index); 0 otherwise.
    public var value: Int
    /// The object the event was dispatched on (set by `dispatchEvent`).
    public internal(set) var target: EventDispatcher?
    /// The object whose listeners are running now.
    public internal(set) var currentTarget: EventDispatcher?
    var stopsPropagation = false
    var stopsImmediatePropagation = false

    public init(type: String, bubbles: Bool = false, value: Int = 0) {
        self.type = type; self.bubbles = bubbles; self.value = value
    }

    /// Listeners of later objects in the bubbling chain are not called; the current object's
    /// remaining listeners still are.
    public func stopPropagation() { stopsPropagation = true }
    /// Neither the current object's remaining listeners nor later objects' are called.
    public func stopImmediatePropagation() { stopsPropagation = true; stopsImmediatePropagation = true }
}

/// The event every node with an enter-frame listener receives once per frame.
public final class EnterFrameEvent: Event {
    /// Seconds since the previous frame.
    public internal(set) var passedTime: Double
    public init(passedTime: Double) {
        self.passedTime = passedTime
        super.init(type: EventType.enterFrame, bubbles: false)
    }
}

/// What `addEventListener` returns: hand it to `removeEventListener` to remove that listener.
public struct ListenerToken: Equatable, Sendable {
    let id: Int
}

/// An object that keeps listeners by event type and dispatches events to them.
open class EventDispatcher {
    struct Listener {
        let type: String
        let id: Int
        let call: (Event) -> Void
    }
    var listeners: [Listener] = []
    var nextListenerID = 0

    public init() {}

    /// Calls `listener` for every event of `type` dispatched on this object (and, for bubbling
    /// events, on its descendants). Listeners run in the order they were added.
    @discardableResult
    public func addEventListener(_ type: String, _ listener: @escaping (Event) -> Void) -> ListenerToken {
        nextListenerID += 1
        listeners.append(Listener(type: type, id: nextListenerID, call: listener))
        return ListenerToken(id: nextListenerID)
    }

    /// Like `addEventListener(_:_:)`, for events of one class: the listener runs only for events
    /// that are an `E` (a custom event subclass, `TouchEvent`, `EnterFrameEvent`).
    @discardableResult
    public final func addEventListener<E: Event>(_ type: String, as _: E.Type, _ listener: @escaping (E) -> Void) -> ListenerToken {
        addEventListener(type) { event in
            if let e = event as? E { listener(e) }
        }
    }

    /// Removes the listener the token came from; false if it was already removed.
    @discardableResult
    public func removeEventListener(_ token: ListenerToken) -> Bool {
        guard let i = listeners.firstIndex(where: { $0.id == token.id }) else { return false }
        listeners.remove(at: i)
        return true
    }

    /// Removes every listener of `type`.
    public func removeEventListeners(_ type: String) {
        listeners.removeAll { sameType($0.type, type) }
    }

    /// Removes every listener.
    public func removeAllEventListeners() { listeners.removeAll() }

    /// True when a listener of `type` is registered on this object.
    public func hasEventListener(_ type: String) -> Bool {
        listeners.contains { sameType($0.type, type) }
    }

    /// The object a bubbling event visits after this one (a display object's parent).
    open var bubbleParent: EventDispatcher? { nil }

    /// Dispatches `event` with this object as its target: its listeners first, then, if the
    /// event bubbles, each ancestor's in turn up to the root, until one stops propagation.
    /// The chain of ancestors is fixed when the dispatch starts.
    public func dispatchEvent(_ event: Event) {
        event.target = self
        event.stopsPropagation = false
        event.stopsImmediatePropagation = false
        guard event.bubbles, bubbleParent != nil else {
            invokeListeners(event)
            event.currentTarget = nil
            return
        }
        var chain: [EventDispatcher] = [self]
        var p = bubbleParent
        while let o = p { chain.append(o); p = o.bubbleParent }
        for o in chain {
            o.invokeListeners(event)
            if event.stopsPropagation { break }
        }
        event.currentTarget = nil
    }

    /// Dispatches a new event of `type` (no payload).
    public func dispatchEvent(type: String, bubbles: Bool = false) {
        dispatchEvent(Event(type: type, bubbles: bubbles))
    }

    /// Calls this object's listeners for the event (the ones registered when the call starts).
    final func invokeListeners(_ event: Event) {
        if listeners.isEmpty { return }
        event.currentTarget = self
        let snapshot = listeners
        for l in snapshot where sameType(l.type, event.type) {
            l.call(event)
            if event.stopsImmediatePropagation { break }
        }
    }
}
