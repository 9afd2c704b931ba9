import Foundation
import HeraldCore
import HeraldPostgres
import HeraldText

/// Parses an NDJSON import line by line, streams the good lines into the database's COPY as it goes, and collects
/// what was wrong with the others (line number, pointer, detail). Nothing but the body and one line is held in
/// memory, so the size of an import is bounded by the request body limit alone.
enum UserImport {
    /// The largest import body: about a million users with a device each. Larger sets are split into requests.
    static let maxBodyBytes = 256 << 20
    /// At most this many line errors are listed; the count covers them all.
    static let maxReportedErrors = 1000

    struct LineError: Encodable {
        var line: Int
        var pointer: String
        var detail: String
    }

    struct Summary: Encodable {
        /// Time spent parsing, validating and streaming lines into the staging table, and upserting from it.
        var stagingMilliseconds: Int
        var upsertMilliseconds: Int
        var lines: Int
        var importedLines: Int
        var failedLines: Int
        var users: Int
        var devices: Int
        var displacedDevices: Int
        var errors: [LineError]
        var errorsTruncated: Bool
    }

    /// Imports `body` at `now` in one transaction on `connection`.
    static func run(
        body: [UInt8], now: Date, zones: ICUZoneDirectory, on connection: PostgresConnection
    ) throws -> Summary {
        var validator = RecipientValidator(zones: zones)
        let decoder = JSONDecoder()
        var lines = 0
        var imported = 0
        var failed = 0
        var errors: [LineError] = []
        var truncated = false
        func fail(_ line: Int, _ lineErrors: [FieldError]) {
            failed += 1
            for error in lineErrors {
                guard errors.count < maxReportedErrors else {
                    truncated = true
                    return
                }
                errors.append(LineError(line: line, pointer: error.pointer, detail: error.message))
            }
        }
        let counts = try ImportRepository.run(now: now, on: connection) { writer in
            var lineNumber = 0
            var start = body.startIndex
            while start < body.endIndex {
                let end = body[start...].firstIndex(of: 0x0A) ?? body.endIndex
                lineNumber += 1
                let line = body[start..<end]
                start = end + 1
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                lines += 1
                let parsed: ImportLine
                switch ImportLine.decode(line, with: decoder) {
                case .success(let decoded): parsed = decoded
                case .failure(let failure):
                    fail(lineNumber, failure.errors)
                    continue
                }
                switch parsed.validated(now: now, validator: &validator) {
                case .failure(let failure):
                    fail(lineNumber, failure.errors)
                case .success(let (profile, devices)):
                    try writer.appendUser(line: lineNumber, profile)
                    for device in devices { try writer.appendDevice(line: lineNumber, device) }
                    imported += 1
                }
            }
        }
        for line in counts.refusedLines {
            imported -= 1
            fail(
                line,
                [
                    FieldError(
                        pointer: "/devices",
                        message: "would leave this user with more than \(Device.maxPerUser) active devices")
                ])
        }
        // In line order; a line's own errors keep theirs.
        errors = errors.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
            \.element)
        return Summary(
            stagingMilliseconds: counts.stagingMilliseconds, upsertMilliseconds: counts.upsertMilliseconds,
            lines: lines, importedLines: imported, failedLines: failed, users: counts.users, devices: counts.devices,
            displacedDevices: counts.displacedDevices, errors: errors, errorsTruncated: truncated)
    }
}
