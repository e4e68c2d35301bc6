import Foundation

/// A scalar of a Subsonic response: an XML attribute value, a JSON string, number or boolean.
enum SubsonicValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}

/// One element of a Subsonic response (Subsonic API 1.16.1, `subsonic-rest-api.xsd`), the
/// single model that renders to both XML and JSON so the two forms cannot drift apart.
///
/// An element has attributes (XML attributes, JSON keys), optional text (XML text, JSON
/// `"value"`), and children under names: one element (`<album>`, `"album": {…}`), a list
/// (repeated `<song>` elements, `"song": […]`), or a list of scalars (repeated
/// `<versions>1</versions>`, `"versions": [1]`).
///
/// ```swift
/// var song = SubsonicElement()
/// song.set("id", "tr-7")
/// song.set("bpm", 128)
/// var album = SubsonicElement()
/// album.add("song", list: [song])
/// ```
struct SubsonicElement: Sendable, Equatable {
    enum Child: Sendable, Equatable {
        case one(SubsonicElement)
        case list([SubsonicElement])
        case values([SubsonicValue])
    }

    private(set) var attributes: [(key: String, value: SubsonicValue)] = []
    var text: String?
    private(set) var children: [(name: String, child: Child)] = []

    init(text: String? = nil) { self.text = text }

    static func == (a: SubsonicElement, b: SubsonicElement) -> Bool {
        a.text == b.text && a.attributes.elementsEqual(b.attributes) { $0.key == $1.key && $0.value == $1.value }
            && a.children.elementsEqual(b.children) { $0.name == $1.name && $0.child == $1.child }
    }

    /// Sets an attribute; a nil value leaves it out (Subsonic omits unknown fields).
    mutating func set(_ key: String, _ value: SubsonicValue?) {
        guard let value else { return }
        if let index = attributes.firstIndex(where: { $0.key == key }) {
            attributes[index].value = value
        } else {
            attributes.append((key, value))
        }
    }

    mutating func set(_ key: String, _ value: String?) { set(key, value.map(SubsonicValue.string)) }
    mutating func set(_ key: String, _ value: Int?) { set(key, value.map { SubsonicValue.int(Int64($0)) }) }
    mutating func set(_ key: String, _ value: Int64?) { set(key, value.map(SubsonicValue.int)) }
    mutating func set(_ key: String, _ value: Bool?) { set(key, value.map(SubsonicValue.bool)) }
    mutating func set(_ key: String, _ value: Double?) {
        set(key, value.flatMap { $0.isFinite ? SubsonicValue.double($0) : nil })
    }

    /// The value of an attribute (for tests and for callers that refine an element).
    func attribute(_ key: String) -> SubsonicValue? { attributes.first { $0.key == key }?.value }

    /// Takes over another element's attributes and children (a payload that sits directly
    /// in the response, as `getOpenSubsonicExtensions`'s list does).
    mutating func merge(_ other: SubsonicElement) {
        for (key, value) in other.attributes { set(key, value) }
        children += other.children
    }

    mutating func add(_ name: String, _ element: SubsonicElement) { children.append((name, .one(element))) }
    mutating func add(_ name: String, list: [SubsonicElement]) { children.append((name, .list(list))) }
    mutating func add(_ name: String, values: [SubsonicValue]) { children.append((name, .values(values))) }
}

/// What a Subsonic endpoint answers inside `subsonic-response`: nothing (ping, star…) or
/// one payload element under its name (`artists`, `album`, …).
struct SubsonicPayload: Sendable {
    var name: String?
    var element: SubsonicElement

    static let empty = SubsonicPayload(name: nil, element: SubsonicElement())

    init(name: String?, element: SubsonicElement) {
        self.name = name
        self.element = element
    }

    init(_ name: String, _ element: SubsonicElement) {
        self.init(name: name, element: element)
    }
}
