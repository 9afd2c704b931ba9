import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The wire form of one history entry: version, action, who (API key id and name), when, before and after.
enum CategoryHistoryView {
    static func json(_ change: CategoryChange) throws -> HeraldHTTP.JSONValue {
        func document(_ text: String?) throws -> HeraldHTTP.JSONValue {
            guard let text else { return .null }
            return try HeraldHTTP.JSONValue(parsing: Array(text.utf8))
        }
        return .object([
            "version": .int(change.version),
            "action": .string(change.action.rawValue),
            "actor": .object([
                "key_id": change.actorKeyId.map(HeraldHTTP.JSONValue.string) ?? .null,
                "name": change.actorName.map(HeraldHTTP.JSONValue.string) ?? .null,
            ]),
            "changed_at": .string(ISO8601.format(change.changedAt)),
            "before": try document(change.before),
            "after": try document(change.after),
        ])
    }
}
