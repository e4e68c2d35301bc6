import Hummingbird

/// A path parameter that names a stored item: a positive 64-bit integer (1 to
/// 9223372036854775807), read with Hummingbird's `parameters.require(_:as:)`.
///
/// The rule everywhere: a malformed id (not such an integer) is a 400 `invalid_input` naming
/// the parameter; a well-formed id that names nothing is the route's 404.
///
/// ```swift
/// let id = try context.parameters.id()        // "/api/library/songs/:id"
/// ```
public struct PathID: LosslessStringConvertible, Sendable, Hashable {
    public let value: Int64

    public init?(_ description: String) {
        guard let value = Int64(description), value > 0 else { return nil }
        self.value = value
    }

    public var description: String { String(value) }
}

extension Parameters {
    /// The ``PathID`` in parameter `name`, or a 400 naming it.
    public func id(_ name: String = "id") throws -> Int64 {
        do {
            return try require(name, as: PathID.self).value
        } catch {
            var refusal = APIError(.badRequest, code: "invalid_input",
                                   message: "\(name) must be a positive integer up to 9223372036854775807, not '\((get(name) ?? "").prefix(40))'")
            refusal.field = name
            throw refusal
        }
    }
}
