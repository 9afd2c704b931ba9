import HeraldPostgres

/// What one batch did, for the worker loop and metrics.
struct BatchReport: Sendable {
    var events: Int = 0
    var eventsDone: Int = 0
    var timers: Int = 0
    /// Whether more work is waiting: the claim came back full, or an event of it has recipients left for another
    /// batch (topic subscribers past this page, or recipients past the batch's budget).
    var full = false
    var outcomes: [String: Int] = [:]
    var queued: [String: Int] = [:]
    /// Claimed events whose stored document did not decode (outcome `rejected.undecodable`).
    var undecodable: [EventClaim] = []

    /// Whether anything was claimed.
    var didWork: Bool { events > 0 || timers > 0 }
}
