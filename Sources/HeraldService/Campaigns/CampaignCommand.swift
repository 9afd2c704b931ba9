import Foundation
import HeraldHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// `herald campaign create|list|show|cancel`: ops' command line against a running server.
enum CampaignCommand {
    static let usage = """
        usage: herald campaign create --category ID (--all | --topic T | --users U1,U2) --date YYYY-MM-DD
                                      --time HH:MM [--data JSON] [--late skip|send_now] [--default-zone ZONE]
                                      [--id ID]
               herald campaign list
               herald campaign show ID [--follow]
               herald campaign cancel ID
        common: --url URL (or HERALD_URL, default http://127.0.0.1:8080)  --key KEY (or HERALD_KEY)

        """

    /// Parsed `--flag value` options and positional words.
    struct Options {
        var values: [String: String] = [:]
        var switches: Set<String> = []
        var words: [String] = []
    }

    static let switchNames: Set<String> = ["--all", "--follow"]

    /// Runs the subcommand and returns the exit status.
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard let action = arguments.first else {
            StandardError.write(usage)
            return 64
        }
        guard let options = parse(Array(arguments.dropFirst())) else {
            StandardError.write(usage)
            return 64
        }
        guard let key = options.values["--key"] ?? environment["HERALD_KEY"] else {
            StandardError.write("herald campaign: give an API key with --key or HERALD_KEY\n")
            return 64
        }
        let client = CampaignClient(
            baseURL: options.values["--url"] ?? environment["HERALD_URL"] ?? "http://127.0.0.1:8080", key: key)
        do {
            switch (action, options.words.count) {
            case ("create", 0):
                guard let body = createBody(options) else {
                    StandardError.write(usage)
                    return 64
                }
                return try report(client.send("POST", "/v1/campaigns", json: body)) { show($0) }
            case ("list", 0):
                let listed = try summaries { try client.send("GET", $0) }
                if let refused = listed.refused { return report(refused) { _ in "" } }
                StandardOutput.write(listed.lines.map { $0 + "\n" }.joined())
                return 0
            case ("show", 1) where options.switches.contains("--follow"):
                return try follow(options.words[0]) { try client.send("GET", $0) }
            case ("show", 1):
                return try report(client.send("GET", "/v1/campaigns/" + escaped(options.words[0]))) { show($0) }
            case ("cancel", 1):
                let path = "/v1/campaigns/" + escaped(options.words[0]) + "/cancel"
                return try report(client.send("POST", path)) { show($0) }
            default:
                StandardError.write(usage)
                return 64
            }
        } catch {
            StandardError.write("herald campaign: \(error)\n")
            return 1
        }
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if switchNames.contains(argument) {
                options.switches.insert(argument)
            } else if argument.hasPrefix("--") {
                guard index < arguments.count else { return nil }
                options.values[argument] = arguments[index]
                index += 1
            } else {
                options.words.append(argument)
            }
        }
        return options
    }

    /// The `POST /v1/campaigns` body from the flags; the server validates the values.
    static func createBody(_ options: Options) -> String? {
        typealias Tree = HeraldHTTP.JSONValue
        guard let category = options.values["--category"], let date = options.values["--date"],
            let time = options.values["--time"]
        else { return nil }
        let audience: Tree
        if options.switches.contains("--all") {
            audience = .object(["all": .bool(true)])
        } else if let topic = options.values["--topic"] {
            audience = .object(["topic": .string(topic)])
        } else if let users = options.values["--users"] {
            audience = .object(["users": .array(users.split(separator: ",").map { .string(String($0)) })])
        } else {
            return nil
        }
        var members: [String: Tree] = [
            "category": .string(category), "audience": audience, "date": .string(date), "local_time": .string(time),
        ]
        if let data = options.values["--data"] {
            guard let parsed = try? Tree(parsing: Array(data.utf8)) else { return nil }
            members["data"] = parsed
        }
        for (flag, name) in [("--late", "late"), ("--default-zone", "default_time_zone"), ("--id", "id")] {
            if let value = options.values[flag] { members[name] = .string(value) }
        }
        return Tree.object(members).jsonText
    }

    /// Prints a successful reply through `render`, or the problem document's title and detail.
    static func report(_ reply: CampaignClient.Reply, render: (HeraldHTTP.JSONValue) -> String) -> Int32 {
        guard (200..<300).contains(reply.status) else {
            var lines = ["herald campaign: HTTP \(reply.status) \(reply.body["title"]?.scalarText ?? "")"]
            if let detail = reply.body["detail"]?.scalarText { lines.append("  " + detail) }
            for error in reply.body["errors"]?.campaignItems ?? [] {
                lines.append("  \(error["pointer"]?.scalarText ?? ""): \(error["detail"]?.scalarText ?? "")")
            }
            StandardError.write(lines.joined(separator: "\n") + "\n")
            return 1
        }
        StandardOutput.write(render(reply.body) + "\n")
        return 0
    }

    /// `id  status  date local_time  category  planned N  enqueued N  waves N`.
    static func summaryLine(_ campaign: HeraldHTTP.JSONValue) -> String {
        let fields = ["id", "status", "date", "local_time", "category"].map { campaign[$0]?.scalarText ?? "-" }
        return fields.joined(separator: "  ")
            + "  planned \(campaign["planned"]?.scalarText ?? "0")  enqueued \(campaign["enqueued"]?.scalarText ?? "0")"
            + "  waves \(campaign["wave_count"]?.scalarText ?? "0")"
    }

    /// The campaign's summary line and one line per wave.
    static func show(_ campaign: HeraldHTTP.JSONValue) -> String {
        var lines = [summaryLine(campaign)]
        for wave in campaign["waves"]?.campaignItems ?? [] {
            let zones = wave["zones"]?.campaignItems ?? []
            let names = zones.prefix(3).compactMap(\.scalarText).joined(separator: ",")
            let more = zones.count > 3 ? " +\(zones.count - 3)" : ""
            var line = "  wave \(wave["number"]?.scalarText ?? "?")  \(wave["due_at"]?.scalarText ?? "")"
            line += "  \(wave["state"]?.scalarText ?? "")  planned \(wave["planned"]?.scalarText ?? "0")"
            line += "  enqueued \(wave["enqueued"]?.scalarText ?? "0")  decided \(wave["decided"]?.scalarText ?? "0")"
            line += "  delivered \(wave["delivered"]?.scalarText ?? "0")  \(names)\(more)"
            if case .object(let suppressed)? = wave["suppressed"], !suppressed.isEmpty {
                line +=
                    "  ("
                    + suppressed.keys.sorted().map { "\($0) \(suppressed[$0]?.scalarText ?? "0")" }
                    .joined(separator: ", ") + ")"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Every campaign's summary line, page after page until the last, or the first reply that was not a page;
    /// `get` sends a GET of a path.
    static func summaries(
        _ get: (String) throws -> CampaignClient.Reply
    ) throws -> (lines: [String], refused: CampaignClient.Reply?) {
        var lines: [String] = []
        var path = "/v1/campaigns?limit=200"
        while true {
            let reply = try get(path)
            guard reply.status == 200 else { return (lines, reply) }
            lines += (reply.body["items"]?.campaignItems ?? []).map(summaryLine)
            guard let cursor = reply.body["next_cursor"]?.scalarText else { return (lines, nil) }
            path = "/v1/campaigns?limit=200&cursor=" + queryEscaped(cursor)
        }
    }

    /// Polls campaign `id` once a second until it completes or is canceled and what it handed to the pipeline is
    /// decided: a live bar on a terminal, one plain line per poll otherwise. `get` sends a GET of a path.
    static func follow(_ id: String, _ get: (String) throws -> CampaignClient.Reply) throws -> Int32 {
        let terminal = isatty(1) == 1
        var progress: CampaignProgress?
        while true {
            let reply = try get("/v1/campaigns/" + escaped(id))
            guard reply.status == 200 else { return report(reply) { _ in "" } }
            let waves = reply.body["waves"]?.campaignItems ?? []
            let planned = waves.filter { $0["state"]?.scalarText != "skipped" }
                .reduce(0) { $0 + (Int($1["planned"]?.scalarText ?? "") ?? 0) }
            let decided = Int(reply.body["decided"]?.scalarText ?? "") ?? 0
            let status = reply.body["status"]?.scalarText ?? "unknown"
            var current = progress ?? CampaignProgress(planned: planned)
            current.planned = planned
            current.observed(decided: decided, at: Date())
            progress = current
            // The server says when the progress can no longer move (`CampaignStatus.isSettled`).
            let settled = reply.body["settled"]?.scalarText == "true"
            if terminal {
                StandardOutput.write("\r\u{1B}[K" + current.bar(decided: decided, status: status))
                if settled { StandardOutput.write("\n") }
            } else {
                StandardOutput.write(current.plain(decided: decided, status: status) + "\n")
            }
            if settled { return 0 }
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// `text` as one query parameter's value.
    static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    static func escaped(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
    }
}

extension HeraldHTTP.JSONValue {
    /// The elements of an array; empty for anything else.
    fileprivate var campaignItems: [HeraldHTTP.JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
