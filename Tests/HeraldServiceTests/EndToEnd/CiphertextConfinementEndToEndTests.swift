import Foundation
import HeraldCore
import HeraldPostgres
import HeraldTestSupport
import Testing

/// End-to-end encrypted content against the real binary on the test's own database: the ciphertext reaches the
/// queue row of each device it was meant for and that device's feed item, and nothing else — not the log, the
/// metrics, a problem document, a preview or the decisions.
@Suite("Ciphertext stays in the queue and the feed (binary end to end)", .serialized)
struct CiphertextConfinementEndToEndTests {
    /// Distinct ciphertexts, each findable wherever it might leak.
    static let everyDevice = secret("for every device of the user")
    static let phoneOnly = secret("for the phone alone")
    static let tabletOnly = secret("for the tablet alone")
    static let tooLarge = secret(String(repeating: "too large for a push ", count: 200))
    static let refused = secret("sent to a system category")
    static let previewed = secret("sent to the preview")
    static let all = [everyDevice, phoneOnly, tabletOnly, tooLarge, refused, previewed]

    static func secret(_ text: String) -> String { Data(("confidential " + text).utf8).base64EncodedString() }

    /// `text` holds none of the ciphertexts (the long one by its first 64 characters, which are its own).
    static func holdsNoCiphertext(_ text: String) -> Bool {
        all.allSatisfy { !text.contains($0.prefix(64)) }
    }

    static func event(_ id: String, category: String = "chat.secret", ciphertext: String) -> String {
        #"{"id":"\#(id)","source":"chat","category":"\#(category)","occurred_at":"\#(ISO8601.format(Date()))","#
            + #""recipients":["u1"],"data":{"text":"hi"},"item_id":"\#(id)","ciphertext":\#(ciphertext)}"#
    }

    @Test func theCiphertextReachesTheQueueAndTheFeedAndNothingElse() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 1))
        }
        defer { pool.close() }
        let herald = try HeraldUnderTest(conninfo: conninfo)
        try await herald.start(environment: ["HERALD_LOG_LEVEL": "debug"])
        do {
            // The service migrated the database at its start.
            try await pool.withConnection { connection in
                var secret = PipelineHarness.chatCategory(id: "chat.secret")
                secret.deliveryMode = .combined
                secret.templates["en"]?.fallbackBody = "New message"
                _ = try CategoryRepository.create(secret, actorKeyId: nil, now: Date(), on: connection)
                _ = try CategoryRepository.create(
                    PipelineHarness.chatCategory(), actorKeyId: nil, now: Date(), on: connection)
            }
            try await Self.check(herald, pool: pool)
        } catch {
            await herald.stop()
            throw error
        }
        await herald.stop()
    }

    static func check(_ herald: HeraldUnderTest, pool: PostgresPool) async throws {
        for user in ["u1", "u2"] {
            #expect(try await herald.request("PUT", "/v1/users/\(user)", json: "{}").status < 300)
        }
        for (installation, user, platform, token) in [
            ("phone", "u1", "apns", String(repeating: "ab", count: 32)),
            ("tablet", "u1", "fcm", "fcm-registration-token-of-the-tablet"),
            ("other", "u2", "fcm", "fcm-registration-token-of-another-user"),
        ] {
            let body =
                #"{"user_id":"\#(user)","platform":"\#(platform)","token":"\#(token)","app_id":"com.example.chat","#
                + #""app_builds_notifications":true}"#
            let registered = try await herald.request("PUT", "/v1/devices/\(installation)", json: body)
            #expect(registered.status == 201, "\(registered.body)")
        }

        // Refused: ciphertext for a system category, malformed base64, and any ciphertext in a preview.
        var problems: [String] = []
        for (body, pointer) in [
            (event("r1", category: "chat.message", ciphertext: "\"\(refused)\""), "/ciphertext"),
            (event("r2", ciphertext: #"{"phone":"\#(refused)*"}"#), "/ciphertext/phone"),
            (
                #"{"events":["# + event("r3", category: "chat.message", ciphertext: "\"\(refused)\"") + ","
                    + event("r4", ciphertext: "[\"\(refused)\"]") + "]}", "/events/1/ciphertext"
            ),
        ] {
            let reply = try await herald.request("POST", "/v1/events", json: body)
            #expect(reply.status == 422, "\(reply.body)")
            #expect(reply.body.contains(pointer))
            problems.append(reply.body)
        }
        let badPreview = try await herald.request(
            "POST", "/v1/categories/chat.secret/preview", json: #"{"ciphertext":"\#(previewed)"}"#)
        #expect(badPreview.status == 422 && badPreview.body.contains("/ciphertext"))
        let preview = try await herald.request(
            "POST", "/v1/categories/chat.secret/preview", json: #"{"app_builds_notifications":true}"#)
        #expect(preview.status == 200)
        #expect(problems.allSatisfy { holdsNoCiphertext($0) } && holdsNoCiphertext(badPreview.body))

        // Accepted: one ciphertext for every device, one per installation, and one too large for a push.
        for body in [
            event("e1", ciphertext: "\"\(everyDevice)\""),
            event("e2", ciphertext: #"{"phone":"\#(phoneOnly)","tablet":"\#(tabletOnly)"}"#),
            event("e3", ciphertext: #"{"phone":"\#(tooLarge)"}"#),
        ] {
            #expect(try await herald.request("POST", "/v1/events", json: body).status == 202)
        }
        let settled = try await pool.pollUntilZero(
            "SELECT count(*) FROM events WHERE state = 'pending'", every: .milliseconds(50), deadline: .seconds(60))
        #expect(settled)

        // The queue rows: each device's own ciphertext; `fetch` where it did not fit; none without an entry.
        let rows = try await pool.withConnection { connection in
            try connection.query(
                Query(unsafeSQL: "SELECT event_id || '/' || installation_id AS key, body FROM deliveries")
            ).map { (try $0.string("key"), try $0.string("body")) }
        }
        let queued = Dictionary(uniqueKeysWithValues: rows)
        #expect(queued["e1/phone"]?.contains(everyDevice) == true && queued["e1/tablet"]?.contains(everyDevice) == true)
        #expect(queued["e2/phone"]?.contains(phoneOnly) == true && queued["e2/tablet"]?.contains(tabletOnly) == true)
        #expect(queued["e2/phone"]?.contains(tabletOnly) == false && queued["e2/tablet"]?.contains(phoneOnly) == false)
        #expect(
            queued["e3/phone"]?.contains(#""fetch":true"#) == true && queued["e3/phone"]?.contains("\"enc\"") == false)
        #expect(queued["e3/tablet"].map { !$0.contains("fetch") && !$0.contains("\"enc\"") } == true)

        // The feed: each installation its own ciphertext, the large one included; another user's installation is
        // not the caller's to name.
        let minted = try await herald.request("POST", "/v1/users/u1/client-tokens", json: "{}")
        let token = try #require(
            ((try? JSONSerialization.jsonObject(with: Data(minted.body.utf8))) as? [String: Any])?["token"] as? String)
        // Items by their item id: two workers may decide a user's events in either order, so the feed's order is
        // not what this test is about.
        func feed(_ query: String) async throws -> (status: Int, ciphertexts: [String: String]) {
            let reply = try await LoopbackHTTP.request(port: herald.port, "GET", "/v1/me/feed" + query, key: token)
            let root = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any]
            let items = root?["items"] as? [[String: Any]] ?? []
            let pairs = items.map { ($0["item_id"] as? String ?? "?", $0["ciphertext"] as? String ?? "none") }
            return (reply.status, Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
        }
        let phone = try await feed("?installation_id=phone")
        #expect(phone.status == 200 && phone.ciphertexts == ["e1": everyDevice, "e2": phoneOnly, "e3": tooLarge])
        let tablet = try await feed("?installation_id=tablet")
        #expect(tablet.status == 200 && tablet.ciphertexts == ["e1": everyDevice, "e2": tabletOnly, "e3": "none"])
        let unnamed = try await feed("")
        #expect(unnamed.status == 200 && unnamed.ciphertexts == ["e1": "none", "e2": "none", "e3": "none"])
        #expect(try await feed("?installation_id=other").status == 404)

        // Nowhere else: the decisions (which record the fetch by its code), the event's view, metrics and the log.
        let decisions = try await pool.withConnection { connection in
            try connection.query(Query(unsafeSQL: "SELECT coalesce(string_agg(d::text, ' '), '') FROM decisions d"))
                .single().string(0)
        }
        #expect(decisions.contains("ciphertext_fetch") && holdsNoCiphertext(decisions))
        for id in ["e1", "e2", "e3"] {
            let view = try await herald.request("GET", "/v1/events/chat/\(id)")
            #expect(view.status == 200 && holdsNoCiphertext(view.body))
        }
        let metrics = try await LoopbackHTTP.request(port: herald.port, "GET", "/metrics", key: nil)
        #expect(metrics.body.contains("herald_http_requests_total") && holdsNoCiphertext(metrics.body))
        let log = try herald.log()
        #expect(log.contains("/v1/events") && log.contains("/v1/me/feed"))
        #expect(holdsNoCiphertext(log))
    }
}
