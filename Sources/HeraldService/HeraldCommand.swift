import Foundation
import HeraldCore
import HeraldText

/// The `herald` command line: `serve`, `migrate`, `tzdata`, `version`.
public enum HeraldCommand {
    static let usage = """
        usage: herald serve [--flag value ...]     serve HTTP (see README for every setting)
               herald migrate [status]             apply pending migrations, or list them
               herald tzdata build|version|check   compile the OS tz database for ICU
               herald bench [--quick] [--json PATH]  measure throughput, latency and memory
               herald campaign create|list|show|cancel  plan and follow campaigns on a running server
               herald version

        """

    /// Runs the command named in `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard let command = arguments.first else {
            StandardError.write(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "bench": return BenchCommand.run(arguments: rest, environment: environment)
        case "campaign": return CampaignCommand.run(arguments: rest, environment: environment)
        case "tzdata":
            return TimeZoneDataCommand.run(arguments: rest)
        case "version", "--version":
            StandardOutput.write("herald \(HeraldVersion.text)\n")
            return 0
        case "serve", "migrate":
            let flags = command == "migrate" && rest.first == "status" ? Array(rest.dropFirst()) : rest
            let config: ServiceConfig
            switch ServiceConfig.load(environment: environment, arguments: flags) {
            case .success(let loaded): config = loaded
            case .failure(let problems):
                StandardError.write("herald: invalid configuration\n" + problems.problems.map { "  \($0)\n" }.joined())
                return 64
            }
            do {
                if command == "serve" {
                    try ServeCommand.run(config: config, environment: environment)
                    return 0
                }
                return try MigrateCommand.run(arguments: rest, config: config, environment: environment)
            } catch {
                StandardError.write("herald: \(error)\n")
                return 1
            }
        case "help", "--help", "-h":
            StandardOutput.write(usage)
            return 0
        default:
            StandardError.write("herald: unknown command '\(command)'\n" + usage)
            return 64
        }
    }
}

/// The version string printed by `herald version`.
enum HeraldVersion {
    static var text: String { Herald.version }
}
