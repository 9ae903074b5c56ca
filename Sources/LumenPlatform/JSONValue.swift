#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON document of unknown shape, decoded and encoded by Foundation's JSON coders
/// (what `JSONSerialization` gives as `Any`, as a type).
public enum JSONValue: Codable, Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON does not tell integers apart).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Parses `data`; nil when it is not JSON.
    public static func parse(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    /// Converts what code builds as `[String: Any]` (strings, numbers, booleans, arrays,
    /// dictionaries, nil) to a value; nil for anything else.
    public init?(_ any: Any?) {
        switch any {
        case nil: self = .null
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as Float: self = .number(Double(value))
        case let values as [Any?]:
            var array: [JSONValue] = []
            for value in values { guard let json = JSONValue(value) else { return nil }; array.append(json) }
            self = .array(array)
        case let values as [String: Any?]:
            var object: [String: JSONValue] = [:]
            for (key, value) in values { guard let json = JSONValue(value) else { return nil }; object[key] = json }
            self = .object(object)
        default: return nil
        }
    }

    /// Decodes whatever JSON value is there.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Integers as integers (`3`, not `3.0`), as JSONSerialization writes them.
            if let integer = Self.integer(value) { try container.encode(integer) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Pretty-printed with sorted keys, as `JSONSerialization` with `.prettyPrinted, .sortedKeys`.
    public func prettyPrinted() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// As `JSONSerialization` returns it: `[String: Any]`, `[Any]`, `String`, `Double`,
    /// `Bool`, and `JSONValue.null` for null.
    public var anyValue: Any {
        switch self {
        case .null: JSONValue.null
        case .bool(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.anyValue)
        case .object(let values): values.mapValues(\.anyValue)
        }
    }

    /// The string, or nil when the value is not one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The object's members, or nil when the value is not an object.
    public var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// A number as text: integers without a fraction (`3`), others as Swift writes them (`0.6`).
    public var numberText: String? {
        guard case .number(let value) = self else { return nil }
        return Self.integer(value).map(String.init) ?? String(value)
    }

    /// `value` as an integer when it is one that a double holds exactly.
    private static func integer(_ value: Double) -> Int64? {
        value.rounded() == value && abs(value) < 9.0e15 ? Int64(value) : nil
    }
}
