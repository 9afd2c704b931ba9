import HeraldCore

/// Builds RFC 6901 JSON pointers such as `/quiet_hours/start` or `/items/2/end`.
public enum JSONPointer {
    /// The pointer for a sequence of reference tokens (member names or array indices).
    public static func make(_ tokens: [String]) -> String {
        tokens.map { "/" + FieldError.token($0) }.joined()
    }

    /// The JSON member name for a Swift property name, as the snake_case key strategy writes it.
    public static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        guard characters.contains(where: \.isUppercase) else { return name }
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if !previous.isUppercase || nextIsLower, previous != "_" {
                    result.append("_")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
