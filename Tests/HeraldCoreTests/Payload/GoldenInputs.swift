import Foundation
import Testing

@testable import HeraldCore

/// The fixed inputs of the payload golden tests, shaped as the decider builds them, and the helpers that compare
/// a delivery with the expected text written in the test files.
enum Golden {
    /// The kinds of push a golden covers.
    enum Kind: String, Sendable, CaseIterable {
        /// The first alert of a burst of the collapsing category `msg:{thread_id}`.
        case alert
        /// The digest that closes that burst and replaces the first alert in place.
        case digest
        /// A withdrawal after a read elsewhere: background, names the collapse ids to remove.
        case withdraw
        /// Only the new badge.
        case badge
        /// A single alert of a category that does not collapse, silenced by quiet hours.
        case silencedSingle = "silenced single alert"
    }

    static let burstCollapseId = "msg:42"
    static let alertId = "5d41402abc4b2a76b9719d911017c592"
    static let digestId = "7b8b965ad4bca0e41ab51de7b31363a1"
    static let withdrawId = "c4ca4238a0b923820dcc509a6f75849b"
    static let badgeId = "c81e728d9d4c2f636f067f89cc14862c"
    static let singleId = "a87ff679a2f3e71d9181a67b7542122c"
    /// The digest goes out when the burst window closes, five minutes after the first alert.
    static let digestSentAt = Fixture.now + 300
    static let expiry = Fixture.now + 86_400

    /// The content of `kind` in delivery `mode` (withdrawals and badges do not depend on the mode).
    static func content(_ kind: Kind, mode: Category.DeliveryMode) -> PushContent {
        switch kind {
        case .alert:
            // The app builds its own notification in `app` mode, so only the fallback text rides along.
            return PushContent(
                purpose: .alert, mode: mode, notificationId: alertId, eventId: "e7", categoryId: "chat.message",
                title: mode == .app ? nil : "Asha", body: mode == .app ? "New message" : #"Lunch at 1? "Café" <3"#,
                badge: 4, interruptionLevel: .active, priority: .high, threadId: "conversation:42",
                apnsCategory: "MESSAGE", androidChannelId: "messages", collapseId: burstCollapseId, itemId: "m7",
                expiresAt: expiry, availableAt: Fixture.now)
        case .digest:
            return PushContent(
                purpose: .digest, mode: mode, notificationId: digestId, eventId: "e9", categoryId: "chat.message",
                title: "3 new messages", body: "From Asha and 2 others", badge: 6, interruptionLevel: .active,
                priority: .high, threadId: nil, apnsCategory: "MESSAGE", androidChannelId: "messages",
                collapseId: burstCollapseId, itemId: "m9", count: 3, expiresAt: expiry, availableAt: digestSentAt)
        case .withdraw:
            return PushContent(
                purpose: .withdraw, mode: mode, notificationId: withdrawId, categoryId: "herald.read", badge: 2,
                withdrawIds: [burstCollapseId, singleId], expiresAt: expiry, availableAt: Fixture.now)
        case .badge:
            return PushContent(
                purpose: .badge, mode: mode, notificationId: badgeId, categoryId: "herald.read", badge: 2,
                expiresAt: expiry, availableAt: Fixture.now, coalesceKey: "badge:d-apns")
        case .silencedSingle:
            return PushContent(
                purpose: .alert, mode: mode, notificationId: singleId, eventId: "e8", categoryId: "chat.mention",
                title: mode == .app ? nil : "Asha", body: mode == .app ? "New mention" : "Are you around?", badge: 5,
                silenced: true, interruptionLevel: .active,
                priority: .high, threadId: "conversation:42", apnsCategory: "MENTION",
                androidChannelId: "mentions", collapseId: singleId, itemId: "m8", expiresAt: expiry,
                availableAt: Fixture.now)
        }
    }

    /// The device of `platform` every golden is built for.
    static func device(_ platform: Device.Platform) -> Device {
        Fixture.device("d-" + platform.rawValue, platform: platform)
    }

    /// The delivery row of `kind` in `mode` for the golden device of `platform`.
    static func delivery(_ kind: Kind, mode: Category.DeliveryMode, platform: Device.Platform) -> Delivery? {
        PayloadBuilder.delivery(for: content(kind, mode: mode), to: device(platform), userId: "u1")
    }

    /// `json` without the whitespace between tokens; text inside strings is kept byte for byte. The expected
    /// bodies are written readably across lines with their keys in Herald's order (sorted by UTF-8 bytes), so the
    /// compacted text must equal the body exactly.
    static func compact(_ json: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        for scalar in json.unicodeScalars {
            if inString {
                out.unicodeScalars.append(scalar)
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                }
            } else if scalar == "\"" {
                inString = true
                out.unicodeScalars.append(scalar)
            } else if !(scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r") {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Every platform rule of `PayloadRules` holds for the golden delivery.
    static func expectPlatformRules(
        _ delivery: Delivery, _ content: PushContent, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let broken = PayloadRules.violations(of: delivery, content: content)
        #expect(broken.isEmpty, "rules broken: \(broken)", sourceLocation: sourceLocation)
    }

    /// The TTL a platform must send: the seconds from when the push may go out to when it expires.
    static func ttlSeconds(_ content: PushContent) -> Int {
        Int(content.expiresAt.timeIntervalSince(content.availableAt))
    }

    /// The UNIX seconds of the content's expiry, as `apns-expiration` carries them.
    static func expirationSeconds(_ content: PushContent) -> String {
        String(Int(content.expiresAt.timeIntervalSince1970))
    }
}

/// One golden case: a kind in a mode, with the delivery's expected headers and body.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    var kind: Golden.Kind
    var mode: Category.DeliveryMode
    var headers: [String: String]
    /// Readable JSON (compacted before comparison) or exact XML.
    var body: String
    var testDescription: String { "\(kind.rawValue), \(mode.rawValue)" }
}

extension GoldenCase {
    /// Three cases of `kind`, one per delivery mode, sharing the headers.
    static func perMode(
        _ kind: Golden.Kind, headers: [String: String], _ system: String, _ app: String, _ combined: String
    ) -> [GoldenCase] {
        [
            GoldenCase(kind: kind, mode: .system, headers: headers, body: system),
            GoldenCase(kind: kind, mode: .app, headers: headers, body: app),
            GoldenCase(kind: kind, mode: .combined, headers: headers, body: combined),
        ]
    }

    /// Three cases of `kind` whose push does not depend on the delivery mode: one expected text for all.
    static func sameInEveryMode(_ kind: Golden.Kind, headers: [String: String], body: String) -> [GoldenCase] {
        perMode(kind, headers: headers, body, body, body)
    }
}

extension Golden {
    /// `xml` written one element per line, joined back into the single line the builder writes: each line's
    /// indentation and the line breaks are dropped, nothing else.
    static func xml(_ xml: String) -> String {
        xml.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.joined()
    }
}
