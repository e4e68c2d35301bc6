import Foundation
import WireFormats

/// The body formats of a Subsonic response: `f=xml` (the default), `f=json`, `f=jsonp`.
enum SubsonicFormat: Sendable, Equatable {
    case xml
    case json
    /// JSON wrapped in a call of the named function.
    case jsonp(String)

    /// The format a request asks for; unknown values and a bad callback name fall back to XML.
    init(parameter: String?, callback: String?) {
        switch parameter {
        case "json": self = .json
        case "jsonp":
            if let callback, !callback.isEmpty, callback.count <= 100,
               callback.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_$.".unicodeScalars.contains($0) }) {
                self = .jsonp(callback)
            } else {
                self = .json
            }
        default: self = .xml
        }
    }

    var contentType: String {
        switch self {
        case .xml: "text/xml; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .jsonp: "application/javascript; charset=utf-8"
        }
    }
}

/// Renders `subsonic-response` documents, XML or JSON, from one `SubsonicElement` tree.
enum SubsonicRenderer {
    static let namespace = "http://subsonic.org/restapi"

    /// The whole document: the root element with the status attributes, then the payload.
    static func document(_ root: SubsonicElement, format: SubsonicFormat) -> String {
        switch format {
        case .xml:
            var out = #"<?xml version="1.0" encoding="UTF-8"?>"#
            out += "\n"
            xml(root, name: "subsonic-response", namespace: namespace, into: &out)
            return out
        case .json:
            var out = #"{"subsonic-response":"#
            json(root, into: &out)
            out += "}"
            return out
        case .jsonp(let callback):
            var out = callback + #"({"subsonic-response":"#
            json(root, into: &out)
            out += "});"
            return out
        }
    }

    // MARK: XML

    static func xml(_ element: SubsonicElement, name: String, namespace: String? = nil, into out: inout String) {
        out += "<" + name
        if let namespace { out += " xmlns=\"" + XMLText.escape(namespace, .attribute) + "\"" }
        for (key, value) in element.attributes {
            out += " " + key + "=\"" + XMLText.escape(text(value), .attribute) + "\""
        }
        if element.children.isEmpty && element.text == nil {
            out += "/>"
            return
        }
        out += ">"
        if let text = element.text { out += XMLText.escape(text, .attribute) }
        for (childName, child) in element.children {
            switch child {
            case .one(let inner): xml(inner, name: childName, into: &out)
            case .list(let list): for inner in list { xml(inner, name: childName, into: &out) }
            case .values(let values):
                for value in values { out += "<" + childName + ">" + XMLText.escape(text(value), .attribute) + "</" + childName + ">" }
            }
        }
        out += "</" + name + ">"
    }

    static func text(_ value: SubsonicValue) -> String {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): number(d)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// A double without a trailing ".0" when it is whole (`128`, `3.5`).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    // MARK: JSON

    static func json(_ element: SubsonicElement, into out: inout String) {
        out += "{"
        var first = true
        func key(_ name: String) {
            if !first { out += "," }
            first = false
            JSONString.append(name, escaping: .javaScript, to: &out)
            out += ":"
        }
        for (name, value) in element.attributes {
            key(name)
            json(value, into: &out)
        }
        if let text = element.text {
            key("value")
            JSONString.append(text, escaping: .javaScript, to: &out)
        }
        for (name, child) in element.children {
            key(name)
            switch child {
            case .one(let inner): json(inner, into: &out)
            case .list(let list):
                out += "["
                for (index, inner) in list.enumerated() {
                    if index > 0 { out += "," }
                    json(inner, into: &out)
                }
                out += "]"
            case .values(let values):
                out += "["
                for (index, value) in values.enumerated() {
                    if index > 0 { out += "," }
                    json(value, into: &out)
                }
                out += "]"
            }
        }
        out += "}"
    }

    static func json(_ value: SubsonicValue, into out: inout String) {
        switch value {
        case .string(let s): JSONString.append(s, escaping: .javaScript, to: &out)
        case .int(let i): out += String(i)
        case .double(let d): out += number(d)
        case .bool(let b): out += b ? "true" : "false"
        }
    }
}
