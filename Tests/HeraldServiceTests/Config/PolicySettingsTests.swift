import HeraldCore
import Testing

@testable import HeraldService

/// The decision policy's global limits as settings: defaults, accepted forms, and a problem naming the setting for
/// every bad one.
@Suite("Policy settings")
struct PolicySettingsTests {
    static func problems(_ environment: [String: String], arguments: [String] = []) -> [ConfigProblem] {
        guard case .failure(let problems) = ServiceConfig.load(environment: environment, arguments: arguments) else {
            return []
        }
        return problems.problems
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let policy = try ServiceConfig.load(environment: [:], arguments: []).get().policy
        #expect(policy.userRateLimit == HeraldCore.Category.RateLimitRule(count: 60, windowSeconds: 3_600))
        #expect(policy.silentPushesPerHour == 3)
        #expect(policy.digestWindowSeconds == 3_600)
        #expect(ServiceConfig.defaults.policy == policy)
    }

    @Test(arguments: [
        ("60/3600", HeraldCore.Category.RateLimitRule(count: 60, windowSeconds: 3_600)),
        ("1/1", HeraldCore.Category.RateLimitRule(count: 1, windowSeconds: 1)),
        ("1000000/604800", HeraldCore.Category.RateLimitRule(count: 1_000_000, windowSeconds: 604_800)),
        ("500/86400", HeraldCore.Category.RateLimitRule(count: 500, windowSeconds: 86_400)),
    ])
    func aUserRateLimitIsCountPerSeconds(text: String, rule: HeraldCore.Category.RateLimitRule) throws {
        let config = try ServiceConfig.load(environment: ["HERALD_USER_RATE_LIMIT": text], arguments: []).get()
        #expect(config.policy.userRateLimit == rule)
    }

    @Test(arguments: ["off", "OFF", "Off"])
    func offMeansNoUserWideBudget(text: String) throws {
        let config = try ServiceConfig.load(environment: ["HERALD_USER_RATE_LIMIT": text], arguments: []).get()
        #expect(config.policy.userRateLimit == nil)
    }

    @Test func flagsOverrideTheEnvironment() throws {
        let config = try ServiceConfig.load(
            environment: [
                "HERALD_USER_RATE_LIMIT": "10/60", "HERALD_SILENT_PUSHES_PER_HOUR": "5",
                "HERALD_DIGEST_WINDOW_SECONDS": "900",
            ],
            arguments: ["--user-rate-limit", "off", "--silent-pushes-per-hour=12", "--digest-window-seconds", "600"]
        ).get()
        #expect(config.policy.userRateLimit == nil)
        #expect(config.policy.silentPushesPerHour == 12)
        #expect(config.policy.digestWindowSeconds == 600)
    }

    @Test(arguments: [
        ("", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("60", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("60/", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("60/3600/1", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("sixty/3600", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("60/1h", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("60 / 3600", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("none", "must be COUNT/SECONDS, e.g. 60/3600 for 60 pushes an hour, or off"),
        ("0/3600", "the count must be from 1 to 1000000 (off turns the budget off)"),
        ("1000001/3600", "the count must be from 1 to 1000000 (off turns the budget off)"),
        ("60/0", "the seconds must be from 1 to 604800"),
        ("60/604801", "the seconds must be from 1 to 604800"),
        (
            "-1/-1",
            "the count must be from 1 to 1000000 (off turns the budget off); the seconds must be from 1 to 604800"
        ),
    ])
    func aBadUserRateLimitNamesTheSettingAndWhatIsWrong(text: String, message: String) {
        let problems = Self.problems(["HERALD_USER_RATE_LIMIT": text])
        #expect(problems == [ConfigProblem(setting: "HERALD_USER_RATE_LIMIT", message: message)])
    }

    @Test(arguments: [
        ("HERALD_SILENT_PUSHES_PER_HOUR", "1", 1), ("HERALD_SILENT_PUSHES_PER_HOUR", "3600", 3_600),
        ("HERALD_DIGEST_WINDOW_SECONDS", "60", 60), ("HERALD_DIGEST_WINDOW_SECONDS", "604800", 604_800),
    ])
    func theBoundsAreAccepted(setting: String, text: String, value: Int) throws {
        let policy = try ServiceConfig.load(environment: [setting: text], arguments: []).get().policy
        let read = setting == "HERALD_SILENT_PUSHES_PER_HOUR" ? policy.silentPushesPerHour : policy.digestWindowSeconds
        #expect(read == value)
    }

    @Test(arguments: [
        ("HERALD_SILENT_PUSHES_PER_HOUR", "0", "must be an integer from 1 to 3600"),
        ("HERALD_SILENT_PUSHES_PER_HOUR", "3601", "must be an integer from 1 to 3600"),
        ("HERALD_SILENT_PUSHES_PER_HOUR", "three", "must be an integer from 1 to 3600"),
        ("HERALD_DIGEST_WINDOW_SECONDS", "59", "must be an integer from 60 to 604800"),
        ("HERALD_DIGEST_WINDOW_SECONDS", "604801", "must be an integer from 60 to 604800"),
        ("HERALD_DIGEST_WINDOW_SECONDS", "1h", "must be an integer from 60 to 604800"),
    ])
    func aBadBudgetOrWindowNamesTheSetting(setting: String, text: String, message: String) {
        #expect(Self.problems([setting: text]) == [ConfigProblem(setting: setting, message: message)])
    }

    @Test func everyBadPolicySettingIsReportedTogether() {
        let problems = Self.problems(
            ["HERALD_USER_RATE_LIMIT": "lots", "HERALD_SILENT_PUSHES_PER_HOUR": "0"],
            arguments: ["--digest-window-seconds", "5"])
        #expect(
            problems.map(\.setting) == [
                "HERALD_USER_RATE_LIMIT", "HERALD_SILENT_PUSHES_PER_HOUR", "HERALD_DIGEST_WINDOW_SECONDS",
            ])
    }
}
