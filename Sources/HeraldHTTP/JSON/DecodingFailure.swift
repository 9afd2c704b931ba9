import Foundation

/// Turns `DecodingError` into problem documents whose pointer names the offending member.
enum DecodingFailure {
    /// The problem for a decoding error of a request body.
    static func problem(for error: DecodingError, body: Data) -> HTTPError {
        switch error {
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty {
                return invalid(pointer: "", detail: "The body must be \(describe(type)).")
            }
            return invalid(pointer: pointer(context.codingPath), detail: "Expected \(describe(type)).")
        case .valueNotFound(let type, let context):
            return invalid(
                pointer: pointer(context.codingPath), detail: "Expected \(describe(type)), found null.")
        case .keyNotFound(let key, let context):
            return invalid(
                pointer: pointer(context.codingPath + [key]), detail: "This member is required.")
        case .dataCorrupted(let context):
            if !context.codingPath.isEmpty {
                return invalid(pointer: pointer(context.codingPath), detail: context.debugDescription)
            }
            return problemForUnlocatedCorruption(body: body)
        @unknown default:
            return invalid(pointer: "", detail: "The body does not have the expected shape.")
        }
    }

    /// The pointer for a coding path, mapping Swift property names back to the snake_case names on the wire.
    static func pointer(_ path: [any CodingKey]) -> String {
        JSONPointer.make(
            path.map { key in key.intValue.map(String.init) ?? JSONPointer.snakeCase(key.stringValue) })
    }

    /// Foundation reports both broken syntax and numbers that do not fit their type (1.5 or 1e40 for an `Int`) as
    /// "not valid JSON" with no path, so the body is parsed again to tell the two apart. The pointer is given when
    /// exactly one number is fractional or beyond `Int`; an integer too big for a narrower type stays unlocated.
    private static func problemForUnlocatedCorruption(body: Data) -> HTTPError {
        guard let tree = try? JSONCoders.verbatimDecoder.decode(JSONValue.self, from: body) else {
            return HTTPError.malformedJSON()
        }
        var suspects: [[String]] = []
        collectNonIntegers(tree, path: [], into: &suspects)
        let detail =
            "A number does not fit the expected type (for example a fraction where an integer is expected)."
        return invalid(
            pointer: suspects.count == 1 ? JSONPointer.make(suspects[0]) : nil, detail: detail)
    }

    private static func collectNonIntegers(
        _ value: JSONValue, path: [String], into suspects: inout [[String]]
    ) {
        switch value {
        case .double: suspects.append(path)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collectNonIntegers(element, path: path + [String(index)], into: &suspects)
            }
        case .object(let members):
            for (name, member) in members {
                collectNonIntegers(member, path: path + [name], into: &suspects)
            }
        default: break
        }
    }

    private static func invalid(pointer: String?, detail: String) -> HTTPError {
        guard let pointer else {
            return HTTPError(
                status: .unprocessableContent, type: "validation-failed", title: "Validation failed", detail: detail)
        }
        return .invalidField(pointer, detail)
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type,
            is UInt64.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type:
            return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "a value of the documented type"
        }
    }
}
