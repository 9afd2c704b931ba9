import Foundation

/// What storing a mute request does to the user's mutes, decided from all of them as stored: which ended mutes go,
/// whether the cap leaves room, and from when the stored mute counts as created.
public struct MuteAdmission: Sendable, Hashable {
    /// The ended mutes to remove (not the one the request renews, which keeps its id): nothing reads them again,
    /// and every decision for the user would still load them, so the cap bounds every row a decision reads.
    public var ended: [String]
    /// Whether the user may hold one more running mute: fewer than `Mute.maxPerUser` run besides the request's.
    public var hasRoom: Bool
    /// The mute's creation time: a running mute of the same thing keeps its own; an ended one starts again now.
    public var createdAt: Date

    /// Decides `request` at `now` among the user's stored mutes and the time each was created.
    public init(_ request: MuteRequest, among stored: [(mute: Mute, createdAt: Date)], now: Date) {
        var ended: [String] = []
        var running = 0
        var createdAt = now
        for (mute, created) in stored {
            let runs = mute.isRunning(at: now)
            if request.renews(mute) {
                if runs { createdAt = created }
            } else if runs {
                running += 1
            } else {
                ended.append(mute.id)
            }
        }
        self.ended = ended
        self.hasRoom = running < Mute.maxPerUser
        self.createdAt = createdAt
    }
}

extension MuteRequest {
    /// Whether storing the request replaces `mute`: a user has one mute per scope and key.
    public func renews(_ mute: Mute) -> Bool {
        mute.scope == scope && (mute.key ?? "") == (key ?? "")
    }
}
