import Foundation

/// Turns a campaign's audience, counted per zone, into waves: one per distinct UTC instant of the local send time.
///
/// Pure: the zone counts come from one grouping query, the rules from the zone directory and `now` from the
/// caller. Each zone's instant follows the DST policy of `ZoneRules.instant(for:)` (a skipped local time is the
/// end of the gap, a repeated one its first occurrence), so zones with :30 and :45 offsets get their own waves.
public enum CampaignPlanner {
    /// The plan for sending at `time` on the local `date` of every zone.
    ///
    /// Zones whose instant is not after `now` are late: with `.skip` they form skipped waves (one per instant,
    /// with their counts); with `.sendNow` they form one wave due at `now`. A zone the directory does not know is
    /// sent at the instant of `defaultZone` and listed in `unknownZones`. Zones with no recipients are left out.
    /// The users without a zone are sent with the default zone, named `defaultZoneName` (its identifier when nil)
    /// among the wave's zones, and that wave `sendsZoneless`.
    public static func plan(
        _ audience: [ZoneAudience], date: CivilDate, time: LocalTime, now: Date, late: LatePolicy,
        defaultZone: any ZoneRules, named defaultZoneName: String? = nil, directory: any ZoneDirectory
    ) -> CampaignPlan {
        let local = date.at(time)
        let defaultName = defaultZoneName ?? defaultZone.identifier
        var byInstant: [Date: (zones: [String], recipients: Int)] = [:]
        var unknown: [String] = []
        for entry in audience where entry.recipients > 0 {
            let zone = entry.zone ?? defaultName
            let rules: any ZoneRules
            if entry.zone == nil {
                rules = defaultZone
            } else if let known = directory.zone(zone) {
                rules = known
            } else {
                unknown.append(zone)
                rules = defaultZone
            }
            let instant = rules.instant(for: local)
            if !(byInstant[instant]?.zones.contains(zone) ?? false) {
                byInstant[instant, default: ([], 0)].zones.append(zone)
            }
            byInstant[instant, default: ([], 0)].recipients += entry.recipients
        }
        var waves: [PlannedWave] = []
        var lateZones: [String] = []
        var lateRecipients = 0
        for (instant, group) in byInstant {
            if instant > now {
                waves.append(wave(at: instant, group.zones, group.recipients, .pending))
            } else if late == .skip {
                waves.append(wave(at: instant, group.zones, group.recipients, .skipped))
            } else {
                lateZones += group.zones
                lateRecipients += group.recipients
            }
        }
        if !lateZones.isEmpty { waves.append(wave(at: now, lateZones, lateRecipients, .pending)) }
        waves.sort { ($0.dueAt, $0.zones.first ?? "") < ($1.dueAt, $1.zones.first ?? "") }
        for index in waves.indices {
            waves[index].number = index + 1
            waves[index].sendsZoneless = waves[index].zones.contains(defaultName)
            if waves[index].state == .skipped { waves[index].finishedAt = now }
        }
        return CampaignPlan(waves: waves, unknownZones: unknown.sorted(by: UTF8Order.precedes))
    }

    private static func wave(
        at instant: Date, _ zones: [String], _ count: Int, _ state: PlannedWave.State
    )
        -> PlannedWave
    {
        PlannedWave(
            number: 0, dueAt: instant, zones: zones.sorted(by: UTF8Order.precedes), recipients: count, state: state)
    }
}
