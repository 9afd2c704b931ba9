import Foundation

/// The one text form of an instant everywhere in Herald: ISO 8601 in UTC (`2026-12-01T09:00:00Z`), with
/// milliseconds only when the instant has a fractional second; parsing takes any offset or `Z`, with or without
/// fractional seconds.
public enum ISO8601 {
    /// The instant as text.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let style = seconds.rounded(.down) == seconds ? plainStyle : fractionalStyle
        return date.formatted(style)
    }

    /// The instant a date-time names, or nil when the text is not one.
    public static func parse(_ text: String) -> Date? {
        if let date = try? plainStyle.parse(text) { return date }
        return try? fractionalStyle.parse(text)
    }

    private static let plainStyle = Date.ISO8601FormatStyle()
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
