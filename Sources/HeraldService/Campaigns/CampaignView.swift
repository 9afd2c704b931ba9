import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The JSON of a campaign: its plan, status and per-wave progress, built as a value tree so the event data keeps
/// its own member names.
enum CampaignView {
    typealias Tree = HeraldHTTP.JSONValue

    /// The campaign's status (`CampaignStatus`); a wave stored in a state this version does not know keeps it
    /// from completing.
    static func status(_ campaign: CampaignRecord, waves: [CampaignWaveRecord]) -> CampaignStatus {
        CampaignStatus.of(
            canceled: campaign.canceledAt != nil, waves: waves.map { WaveState(rawValue: $0.state) ?? .pending })
    }

    /// The whole campaign with its waves; `outcomes` are the decisions per wave and outcome.
    static func full(
        _ campaign: CampaignRecord, waves: [CampaignWaveRecord], outcomes: [Int: [String: Int]]
    ) -> Tree {
        var members = summaryMembers(campaign, waves: waves)
        members["audience"] = audience(campaign.audience)
        members["late"] = .string(campaign.late)
        members["default_time_zone"] = .string(campaign.defaultTimeZone)
        members["data"] = (try? Tree(parsing: Array(campaign.data.utf8))) ?? .object([:])
        members["unknown_zones"] = .array(campaign.unknownZones.map(Tree.string))
        var decided = 0
        var delivered = 0
        members["waves"] = .array(
            waves.map { wave in
                let counts = outcomes[wave.number] ?? [:]
                let waveDecided = counts.values.reduce(0, +)
                decided += waveDecided
                delivered += counts["delivered"] ?? 0
                return .object([
                    "number": .int(wave.number), "due_at": .string(ISO8601.format(wave.dueAt)),
                    "zones": .array(wave.zones.map(Tree.string)), "state": .string(wave.state),
                    "planned": .int(wave.planned), "enqueued": .int(wave.enqueued), "decided": .int(waveDecided),
                    "delivered": .int(counts["delivered"] ?? 0),
                    "suppressed": .object(counts.filter { $0.key != "delivered" }.mapValues { .int($0) }),
                    "started_at": date(wave.startedAt), "finished_at": date(wave.finishedAt),
                ])
            })
        members["decided"] = .int(decided)
        members["delivered"] = .int(delivered)
        members["settled"] = .bool(
            status(campaign, waves: waves).isSettled(
                decided: decided, enqueued: waves.reduce(0) { $0 + $1.enqueued }))
        return .object(members)
    }

    /// The list entry: the campaign without its waves' detail.
    static func summary(_ campaign: CampaignRecord, waves: [CampaignWaveRecord]) -> Tree {
        .object(summaryMembers(campaign, waves: waves))
    }

    private static func summaryMembers(_ campaign: CampaignRecord, waves: [CampaignWaveRecord]) -> [String: Tree] {
        [
            "id": .string(campaign.id), "category": .string(campaign.categoryId), "date": .string(campaign.date),
            "local_time": .string(campaign.localTime), "status": .string(status(campaign, waves: waves).rawValue),
            "planned": .int(waves.reduce(0) { $0 + $1.planned }),
            "enqueued": .int(waves.reduce(0) { $0 + $1.enqueued }), "wave_count": .int(waves.count),
            "created_at": .string(ISO8601.format(campaign.createdAt)),
            "canceled_at": date(campaign.canceledAt),
        ]
    }

    private static func audience(_ audience: CampaignAudience) -> Tree {
        switch audience {
        case .all: .object(["all": .bool(true)])
        case .topic(let topic): .object(["topic": .string(topic)])
        case .users(let users): .object(["users": .array(users.map(Tree.string))])
        }
    }

    private static func date(_ value: Date?) -> Tree {
        value.map { .string(ISO8601.format($0)) } ?? .null
    }
}
