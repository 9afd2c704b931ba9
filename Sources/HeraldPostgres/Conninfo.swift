internal import CLibPQ
import Foundation

/// Reads and writes libpq connection strings (`key=value …` or `postgresql://` URLs) through libpq's own parser.
enum Conninfo {
    /// The settings given explicitly in `conninfo`, in libpq's keyword order.
    static func parse(_ conninfo: String) throws -> [(key: String, value: String)] {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) } ?? "invalid connection string"
            if let errorMessage { PQfreemem(errorMessage) }
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        defer { PQconninfoFree(options) }
        var settings: [(key: String, value: String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                settings.append((String(cString: keyword), String(cString: value)))
            }
            option += 1
        }
        return settings
    }

    /// A `key='value'` string, quoting every value as libpq expects.
    static func format(_ settings: [(key: String, value: String)]) -> String {
        settings.map { key, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            return "\(key)='\(escaped)'"
        }.joined(separator: " ")
    }

    /// `conninfo` with the database name replaced.
    static func replacingDatabase(in conninfo: String, with database: String) throws -> String {
        var settings = try parse(conninfo).filter { $0.key != "dbname" }
        settings.append(("dbname", database))
        return format(settings)
    }

    /// The caller's settings plus what every Herald session relies on: UTF-8, ISO dates in UTC, a connect timeout.
    /// Server options come from the conninfo's `options`, or else from `PGOPTIONS` as libpq would take them (the
    /// `options` Herald always sets would otherwise hide the variable).
    ///
    /// Herald's sessions plan with `random_page_cost` 1.1 unless those options say otherwise (a later `-c` wins).
    /// Herald reads by key from a working set that is in memory; with the default of 4, a batch of 500 recipients
    /// out of 20,000 users was read by sequential scans of `users` and `devices`: 8 and 25 ms a batch where the
    /// index lookups take 1.8 and 4.5.
    ///
    /// They plan without parallel workers (`max_parallel_workers_per_gather` 0), unless the options say otherwise.
    /// A worker's batch is one short statement after another; a parallel plan starts processes for each. With the
    /// ids of a full batch known, the plan PostgreSQL makes for the state's statement on a connection's first five
    /// batches ran in parallel at 33 ms of CPU a batch against 11 ms for the same plan run alone.
    static func sessionSettings(
        for conninfo: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> [(key: String, value: String)] {
        var settings = try parse(conninfo)
        func set(_ key: String, _ value: (String?) -> String) {
            let index = settings.firstIndex { $0.key == key }
            let updated = value(index.map { settings[$0].value })
            if let index { settings[index].value = updated } else { settings.append((key, updated)) }
        }
        set("client_encoding") { _ in "UTF8" }
        set("options") { existing in
            [
                "-c random_page_cost=1.1 -c max_parallel_workers_per_gather=0", existing ?? environment["PGOPTIONS"],
                "-c DateStyle=ISO -c TimeZone=UTC",
            ]
            .compactMap { $0 }
            .joined(separator: " ")
        }
        set("connect_timeout") { existing in existing ?? "10" }
        // A peer that vanished (a host down, a cut network) is noticed within about a minute, not hours.
        set("keepalives") { existing in existing ?? "1" }
        set("keepalives_idle") { existing in existing ?? "30" }
        set("keepalives_interval") { existing in existing ?? "10" }
        set("keepalives_count") { existing in existing ?? "3" }
        return settings
    }

    /// `conninfo` with server parameters added to its `options` (`-c name=value`); names and values are plain
    /// words (letters, digits, `_`, `.`), which the options syntax passes through unquoted.
    static func addingServerParameters(
        _ parameters: [(name: String, value: String)], to conninfo: String
    ) throws -> String {
        guard !parameters.isEmpty else { return conninfo }
        let word = #/^[A-Za-z0-9_.]+$/#
        for (name, value) in parameters where name.wholeMatch(of: word) == nil || value.wholeMatch(of: word) == nil {
            throw PostgresError(kind: .invalidValue, message: "server parameter \(name) is not a plain word")
        }
        var settings = try parse(conninfo)
        let added = parameters.map { "-c \($0.name)=\($0.value)" }.joined(separator: " ")
        if let index = settings.firstIndex(where: { $0.key == "options" }) {
            settings[index].value += " " + added
        } else {
            settings.append(("options", added))
        }
        return format(settings)
    }

    /// Calls `body` with NULL-terminated keyword and value arrays for `PQconnectdbParams`.
    static func withKeywordArrays<R>(
        _ settings: [(key: String, value: String)],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let keywords = settings.map { strdup($0.key) } + [nil]
        let values = settings.map { strdup($0.value) } + [nil]
        defer {
            for pointer in keywords + values { free(pointer) }
        }
        let constKeywords = keywords.map { UnsafePointer($0) }
        let constValues = values.map { UnsafePointer($0) }
        return constKeywords.withUnsafeBufferPointer { keywordPointers in
            constValues.withUnsafeBufferPointer { valuePointers in
                body(keywordPointers.baseAddress!, valuePointers.baseAddress!)
            }
        }
    }
}
