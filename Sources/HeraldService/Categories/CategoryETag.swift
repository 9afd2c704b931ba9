import Foundation
import HeraldHTTP

/// The entity tag of a category is its version, quoted: a strong validator that changes with every write.
enum CategoryETag {
    /// What an `If-Match` header asks for.
    enum Condition: Sendable, Hashable {
        /// `*`: any current version.
        case any
        /// A list of strong tags; weak or malformed entries never match, as RFC 9110 requires for `If-Match`.
        case versions([Int])

        /// Whether the stored `version` satisfies the condition.
        func matches(_ version: Int) -> Bool {
            switch self {
            case .any: true
            case .versions(let versions): versions.contains(version)
            }
        }

        /// The version the writer expects, when it named exactly one.
        var expectedVersion: Int? {
            if case .versions(let versions) = self, versions.count == 1 { return versions[0] }
            return nil
        }
    }

    /// `"<version>"`.
    static func value(_ version: Int) -> String { "\"\(version)\"" }

    /// The `If-Match` condition of `request`, or nil when it sent none.
    static func condition(of request: HTTPRequest) -> Condition? {
        let fields = request.headers.values(for: "if-match")
        guard !fields.isEmpty else { return nil }
        var versions: [Int] = []
        for entry in fields.joined(separator: ",").split(separator: ",") {
            let tag = entry.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return .any }
            guard tag.count >= 3, tag.hasPrefix("\""), tag.hasSuffix("\""),
                let version = Int(tag.dropFirst().dropLast()), version >= 1
            else { continue }
            versions.append(version)
        }
        return .versions(versions)
    }

    /// The `If-Match` condition a write must carry: 428 without one, so no edit is made blind.
    static func requiredCondition(of request: HTTPRequest) throws(HTTPError) -> Condition {
        guard let condition = condition(of: request) else {
            throw HTTPError(
                status: .preconditionRequired, type: "precondition-required", title: "Precondition required",
                detail: "Send If-Match with the ETag from your last read of this category, so no change is lost.")
        }
        return condition
    }

    /// 412 carrying the current ETag, for a writer whose copy is out of date.
    static func preconditionFailed(current version: Int) -> HTTPError {
        HTTPError(
            status: .preconditionFailed, type: "precondition-failed", title: "Precondition failed",
            detail: "The category changed since your read; it is now at ETag \(value(version)). Read it again, "
                + "reapply your change and retry.",
            headers: ["ETag": value(version)])
    }
}
