import Foundation

/// The text of values repeated across a batch's rows, rendered once each: the deliveries' and the decisions' COPY
/// and the arrays of the batch's statements, whose times are mostly the batch's own few. (Not the deliveries'
/// headers: most rows' differ, by their collapse id or expiry, and hashing them for a memo cost more than writing
/// them.)
struct BatchTexts {
    private var dateTexts: [Date: String] = [:]

    /// The `timestamptz` text of `date`.
    mutating func date(_ date: Date) -> String {
        if let text = dateTexts[date] { return text }
        let text = date.postgresText
        if dateTexts.count < 256 { dateTexts[date] = text }
        return text
    }
}
