import Foundation
import HeraldCore
import HeraldHTTP

/// Opaque paging cursors: the position after the last item of a page, tagged with what it pages through so a
/// cursor from one list is refused by another. Clients must not build them; the format may change.
enum PageCursor {
    /// The cursor after the category `id`.
    static func category(after id: String) -> String { Base64URL.encode(Array(("c1:" + id).utf8)) }

    /// The cursor after history version `version`.
    static func history(after version: Int) -> String { Base64URL.encode(Array("h1:\(version)".utf8)) }

    /// The cursor before the decision of event seq `seq`, in a user's decisions listed newest first.
    static func decision(before seq: Int64) -> String { Base64URL.encode(Array("d1:\(seq)".utf8)) }

    /// The event seq a decisions cursor points before; 400 for anything this service did not issue.
    static func decisionSeq(from cursor: String) throws(HTTPError) -> Int64 {
        guard let text = decode(cursor, tag: "d1:"), let seq = Int64(text), seq > 0 else { throw invalid }
        return seq
    }

    /// The category id a cursor points after; 400 for anything this service did not issue.
    static func categoryId(from cursor: String) throws(HTTPError) -> String {
        guard let text = decode(cursor, tag: "c1:"), CategoryRules.isSlug(text) else { throw invalid }
        return text
    }

    /// The history version a cursor points after (versions are 32-bit in the database); 400 for anything this
    /// service did not issue.
    static func historyVersion(from cursor: String) throws(HTTPError) -> Int {
        guard let text = decode(cursor, tag: "h1:"), let version = Int32(text), version >= 0 else { throw invalid }
        return Int(version)
    }

    /// The cursor after the API key created at `createdAt` with id `id`, in the keys listed newest first.
    static func apiKey(after createdAt: Date, id: String) -> String {
        Base64URL.encode(Array("k1:\(createdAt.wholeMicrosecondsSince1970):\(id)".utf8))
    }

    /// The creation time (to the microsecond, as stored) and id an API keys cursor points after; 400 for anything
    /// this service did not issue.
    static func apiKey(from cursor: String) throws(HTTPError) -> (createdAt: Date, id: String) {
        guard let text = decode(cursor, tag: "k1:"), let colon = text.firstIndex(of: ":"),
            let microseconds = Int64(text[..<colon]), (0...Self.lastMicrosecond).contains(microseconds)
        else { throw invalid }
        let id = String(text[text.index(after: colon)...])
        guard !id.isEmpty else { throw invalid }
        return (Date(timeIntervalSince1970: Double(microseconds) / 1_000_000), id)
    }

    /// 9999-12-31T23:59:59.999999Z in microseconds since 1970: no instant Herald stores is later.
    static let lastMicrosecond: Int64 = 253_402_300_799_999_999

    /// `limit` from the query: 1 to `maximum`, `defaultValue` when absent.
    static func limit(_ request: HTTPRequest, defaultValue: Int, maximum: Int) throws(HTTPError) -> Int {
        guard let text = request.query("limit") else { return defaultValue }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw HTTPError(
                status: .badRequest, type: "invalid-query", detail: "limit must be an integer from 1 to \(maximum).",
                pointer: "limit")
        }
        return limit
    }

    /// A `cursor` that no id-keyed list of this API (topic subscribers, campaigns) returned.
    static var unknownIdCursor: HTTPError {
        HTTPError(
            status: .badRequest, type: "invalid-query", detail: "cursor is not one this API returned.",
            pointer: "cursor")
    }

    private static func decode(_ cursor: String, tag: String) -> String? {
        guard cursor.utf8.count <= 200, let bytes = Base64URL.decode(cursor) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self), text.hasPrefix(tag) else { return nil }
        return String(text.dropFirst(tag.count))
    }

    private static var invalid: HTTPError {
        HTTPError(
            status: .badRequest, type: "invalid-cursor",
            detail: "The cursor is not one this list issued; start again without it.", pointer: "cursor")
    }
}
