import Foundation
import HeraldHTTP
import HeraldPostgres
import Synchronization

@testable import HeraldService

/// A clock tests move by hand, so expiry and staleness are checked without waiting.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The clock as `TestService.make(clock:)` takes it.
    var function: @Sendable () -> Date { { [self] in now } }
}

/// Sample tokens of the right shape for each platform.
enum SampleTokens {
    static func apns(_ seed: Int) -> String {
        let hex = String(seed, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    static func fcm(_ seed: Int) -> String { "fcm\(seed):APA91b" + String(repeating: "k", count: 120) }

    static let p256dh = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    static let auth = "tBHItJI5svbpez7KI4CCXg"
}

extension TestService {
    /// Runs SQL directly (setup and inspection only).
    @discardableResult
    func sql(_ text: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> PostgresResult {
        try context.pool.withConnectionBlocking { connection in
            try connection.query(Query(unsafeSQL: text), parameters)
        }
    }

    /// The service's clock: every time a test stores for the policy to read comes from here.
    var now: Date { context.clock() }

    /// The single integer a count query returns.
    func count(_ text: String) throws -> Int { try sql(text).single().int(0) }

    /// Inserts a category row the way the categories API stores it.
    func category(_ id: String, document: String = "{}", archived: Bool = false) throws {
        try sql(
            "INSERT INTO categories (id, document, archived_at) VALUES ('\(id)', '\(document)'::jsonb"
                + " || jsonb_build_object('id', '\(id)', 'archived', \(archived)), $1)",
            [archived ? now : nil])
    }

    /// Registers an APNs device and returns the response.
    @discardableResult
    func registerAPNs(_ installation: String, user: String, token: String) -> HTTPResponse {
        send(
            .put, "/v1/devices/\(installation)",
            json: #"{"user_id":"\#(user)","platform":"apns","token":"\#(token)","app_id":"com.example.chat"}"#)
    }
}

extension JSONValue {
    /// The string at a member, or nil.
    subscript(string key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }

    /// The array at a member, or empty.
    subscript(array key: String) -> [JSONValue] {
        if case .array(let value)? = self[key] { return value }
        return []
    }
}
