import Foundation
import HeraldCore
import HeraldHTTP

@testable import HeraldService

extension PipelineHarness {
    /// A client token for `user`, valid for an hour of the harness clock.
    func clientToken(_ user: String) -> String {
        context.clientTokens!.mint(userID: user, issuedAt: clock.now, expiresAt: clock.now.addingTimeInterval(3600))
    }

    /// Sends a request with a client token for `user` (or the raw `token`).
    func sendAsClient(
        _ user: String, _ method: HTTPMethod, _ target: String, json: String? = nil, token: String? = nil
    ) async -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Authorization", "Bearer \(token ?? clientToken(user))")
        if json != nil { headers.set("Content-Type", "application/json") }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8))
        return await offCooperativePool { [dispatcher] in dispatcher.respond(to: request) }
    }

    /// Ingests one event per item for `user` and decides them.
    func notify(_ user: String, items: [String], at date: Date) async throws {
        let events = items.map {
            PipelineHarness.event(id: "e-\(user)-\($0)", users: [user], item: $0, occurredAt: date)
        }
        _ = await send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await decideAll()
    }

    /// Every page of `user`'s feed after `cursor`, `limit` at a time; returns the items and the final cursor.
    func drainFeed(_ user: String, after cursor: String?, limit: Int) async -> (items: [JSONValue], cursor: String?) {
        var items: [JSONValue] = []
        var cursor = cursor
        while true {
            let query = "limit=\(limit)" + (cursor.map { "&after=\($0)" } ?? "")
            let page = await sendAsClient(user, .get, "/v1/me/feed?" + query)
            guard page.status == .ok, case .array(let batch)? = page.json["items"] else { return (items, cursor) }
            items += batch
            if case .string(let next)? = page.json["next_cursor"] { cursor = next }
            if page.json["has_more"] != .bool(true) { return (items, cursor) }
        }
    }
}
