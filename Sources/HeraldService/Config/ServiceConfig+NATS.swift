import Foundation

extension ServiceConfig {
    /// Whether NATS is configured at all.
    public var natsEnabled: Bool { !natsServers.isEmpty }

    /// Reads and checks the `HERALD_NATS_*` settings.
    mutating func applyNATS(_ values: [String: String], problems: inout [ConfigProblem]) {
        if let list = values["HERALD_NATS_URL"] {
            let servers = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if servers.isEmpty || !servers.allSatisfy(Self.isNATSURL) {
                problems.append(
                    ConfigProblem(
                        setting: "HERALD_NATS_URL",
                        message: "must be comma-separated nats://host:port URLs, e.g. nats://127.0.0.1:4222"))
            } else {
                natsServers = servers
            }
        }
        Self.name(values, "HERALD_NATS_EVENTS_STREAM", &natsEventsStream, &problems)
        Self.name(values, "HERALD_NATS_CONSUMER", &natsConsumer, &problems)
        Self.name(values, "HERALD_NATS_DELIVERIES_STREAM", &natsDeliveriesStream, &problems)
        Self.name(values, "HERALD_NATS_DEAD_LETTER_STREAM", &natsDeadLetterStream, &problems)
        Self.subject(values, "HERALD_NATS_EVENTS_SUBJECT", wildcards: true, &natsEventsSubject, &problems)
        Self.subject(values, "HERALD_NATS_DEAD_LETTER_SUBJECT", wildcards: false, &natsDeadLetterSubject, &problems)
        Self.switchValue(values, "HERALD_NATS_EVENTS", &natsEvents, &problems)
        Self.switchValue(values, "HERALD_NATS_RELAY", &natsRelay, &problems)
        Self.integer(values, "HERALD_NATS_REPLICAS", 1...5, &natsReplicas, &problems)
        Self.integer(values, "HERALD_NATS_BATCH_SIZE", 1...5_000, &natsBatchSize, &problems)
        if natsRelay && natsServers.isEmpty {
            problems.append(ConfigProblem(setting: "HERALD_NATS_RELAY", message: "needs HERALD_NATS_URL"))
        }
        if Self.subjectMatches(pattern: natsEventsSubject, subject: natsDeadLetterSubject) {
            problems.append(
                ConfigProblem(
                    setting: "HERALD_NATS_DEAD_LETTER_SUBJECT",
                    message: "must not match HERALD_NATS_EVENTS_SUBJECT (dead letters would be consumed again)"))
        }
    }

    /// `nats://host:port` (or `tls://`), or a bare `host:port`.
    static func isNATSURL(_ text: String) -> Bool {
        var rest = Substring(text)
        for scheme in ["nats://", "tls://"] where rest.hasPrefix(scheme) { rest = rest.dropFirst(scheme.count) }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { return false }
        let host = rest[..<colon].split(separator: "@").last ?? ""
        return !host.isEmpty && !host.contains(where: { $0.isWhitespace || $0 == "/" })
    }

    /// Stream and consumer names: 1 to 64 of letters, digits, `-` and `_`.
    private static func name(
        _ values: [String: String], _ setting: String, _ target: inout String, _ problems: inout [ConfigProblem]
    ) {
        guard let text = values[setting] else { return }
        let allowed = text.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }
        guard allowed, (1...64).contains(text.count) else {
            problems.append(ConfigProblem(setting: setting, message: "must be 1 to 64 of A-Z, a-z, 0-9, '-', '_'"))
            return
        }
        target = text
    }

    /// Subjects: dot-separated non-empty tokens of printable ASCII; `*` and a final `>` only where allowed.
    private static func subject(
        _ values: [String: String], _ setting: String, wildcards: Bool, _ target: inout String,
        _ problems: inout [ConfigProblem]
    ) {
        guard let text = values[setting] else { return }
        let tokens = text.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            text.utf8.count <= 256
            && tokens.enumerated().allSatisfy { index, token in
                guard !token.isEmpty, token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                    return false
                }
                if token == "*" { return wildcards }
                if token == ">" { return wildcards && index == tokens.count - 1 }
                return !token.contains("*") && !token.contains(">")
            }
        guard valid else {
            problems.append(
                ConfigProblem(
                    setting: setting,
                    message: wildcards
                        ? "must be a NATS subject such as herald.events.> (tokens, '*', a final '>')"
                        : "must be a NATS subject without wildcards, such as herald.dead.events"))
            return
        }
        target = text
    }

    private static func switchValue(
        _ values: [String: String], _ setting: String, _ target: inout Bool, _ problems: inout [ConfigProblem]
    ) {
        guard let text = values[setting] else { return }
        switch text.lowercased() {
        case "on", "true", "1", "yes": target = true
        case "off", "false", "0", "no": target = false
        default: problems.append(ConfigProblem(setting: setting, message: "must be on or off"))
        }
    }

    /// Whether `subject` is matched by the (possibly wildcard) `pattern`.
    static func subjectMatches(pattern: String, subject: String) -> Bool {
        let patternTokens = pattern.split(separator: ".")
        let subjectTokens = subject.split(separator: ".")
        for (index, token) in patternTokens.enumerated() {
            if token == ">" { return subjectTokens.count > index }
            guard index < subjectTokens.count, token == "*" || token == subjectTokens[index] else { return false }
        }
        return patternTokens.count == subjectTokens.count
    }
}
