import Foundation
import HeraldCore
import HeraldPostgres

/// The production `DecisionStore`: a batch is one transaction on one connection, run through the repositories'
/// named statements.
struct PostgresDecisionStore: DecisionStore {
    let connection: PostgresConnection
    /// The workers' categories by version; without it every batch reads and decodes its categories' documents.
    let categoryCache: CategoryVersionCache?
    /// The batches the process's workers have open, so that a claim starts after them; without it every claim
    /// walks from the oldest pending event.
    let claimsInFlight: ClaimsInFlight?

    /// A store on `connection`, which is in no transaction yet.
    init(
        _ connection: PostgresConnection, categoryCache: CategoryVersionCache? = nil,
        claimsInFlight: ClaimsInFlight? = nil
    ) {
        self.connection = connection
        self.categoryCache = categoryCache
        self.claimsInFlight = claimsInFlight
    }

    func openBatch(events: Int, timers: Int, now: Date) throws -> (claims: [EventClaim], dueTimers: [TimerRecord]) {
        let key = ObjectIdentifier(connection)
        let start = claimsInFlight?.start(key)
        let opened = try connection.pipeline([
            PipelineRepository.beginQuery, EventRepository.claimQuery(limit: events, after: start?.after),
            TimerRepository.dueQuery(at: now, limit: timers),
        ])
        let claims = try EventRepository.claims(from: opened[1])
        if let start { claimsInFlight?.claimed(key, from: start, seqs: claims.map(\.seq), batch: events) }
        return (claims, try TimerRepository.timers(from: opened[2]))
    }

    /// Opens a transaction that claims nothing, for a read outside the pipeline.
    func begin() throws {
        _ = try connection.pipeline([PipelineRepository.beginQuery])
    }

    func topicPages(_ requests: [(topic: String, after: String)], limit: Int) throws -> [[String]] {
        try PipelineRepository.topicPages(requests, limit: limit, on: connection)
    }

    func recipients(_ userIds: [String], now: Date, lock: Bool) throws -> RecipientStateSnapshot {
        try RecipientStateRepository.load(userIds, now: now, lock: lock, on: connection)
    }

    func categories(_ ids: [String]) throws -> [String: HeraldCore.Category] {
        if let categoryCache { return try categoryCache.categories(ids, on: connection) }
        return try CategoryRepository.categories(ids: ids, on: connection)
    }

    /// With the category cache, the categories' versions travel in the round trip that locks and reads the
    /// recipients: a small batch is one round trip shorter.
    func recipients(
        _ userIds: [String], categories ids: [String], now: Date, lock: Bool
    ) throws -> (snapshot: RecipientStateSnapshot, categories: [String: HeraldCore.Category]) {
        guard let categoryCache else { return (try recipients(userIds, now: now, lock: lock), try categories(ids)) }
        let request = categoryCache.request(ids)
        let loaded = try RecipientStateRepository.load(
            userIds, now: now, lock: lock, alongside: request.query.map { [$0] } ?? [], on: connection)
        let categories = try loaded.alongside.first.map { try categoryCache.categories(request, rows: $0) } ?? [:]
        return (loaded.snapshot, categories)
    }

    func readCandidates(for scope: ReadScope, sharing collapseIds: [String]) throws -> [ReadCandidate<DecisionKey>] {
        try DecisionRepository.readCandidates(for: scope, sharing: collapseIds, on: connection)
    }

    func markRead(_ keys: [DecisionKey], at now: Date) throws {
        try DecisionRepository.markRead(keys, at: now, on: connection)
    }

    /// Above this many queue rows (or decisions) a batch writes them by COPY.
    static let copyThreshold = 64

    /// Deliveries and decisions by COPY when there are many, the rest in one pipeline that ends with COMMIT (one
    /// round trip).
    func commit(_ output: BatchOutput, book: RecipientBook, now: Date) throws {
        var queries: [BoundQuery] = []
        // Most batches queue no coalesced push: their rows go as they are, without copying each.
        let keyed = output.deliveries.filter { $0.delivery.coalesceKey != nil }
        let plain = keyed.isEmpty ? output.deliveries : output.deliveries.filter { $0.delivery.coalesceKey == nil }
        // COPY streams a large batch fastest; a small one (the usual case when traffic is light and latency is what
        // counts) is cheaper as one more statement in the closing pipeline.
        if plain.count > Self.copyThreshold {
            try DeliveryRepository.copy(plain, now: now, on: connection)
        } else if let insert = DeliveryRepository.insertQuery(plain, now: now) {
            queries.append(insert)
        }
        if output.decisions.count > Self.copyThreshold {
            try DecisionRepository.copy(output.decisions, now: now, on: connection)
        } else if let insert = DecisionRepository.insertQuery(output.decisions, now: now) {
            queries.append(insert)
        }
        if let insert = DecisionRepository.insertDigestsQuery(output.digests, now: now) { queries.append(insert) }
        queries += try RecipientStateRepository.writeQueries(book.write, now: now)
        queries += TimerRepository.writeQueries(deleting: output.firedTimers, arming: Array(book.armed.values))
        queries += DeliveryRepository.coalescingQueries(keyed, now: now)
        // After the inserts, so a push queued earlier in this batch and read later in it ends too.
        if let stop = DeliveryRepository.stopQueuedQuery(
            notificationIds: output.stoppedNotificationIds, installationIds: output.stoppedInstallationIds.sorted(),
            detail: ReadResult.stoppedPushDetail, now: now)
        {
            queries.append(stop)
        }
        if !output.progress.isEmpty { queries.append(EventRepository.progressQuery(output.progress, at: now)) }
        if let ready = DeliveryRepository.readyQuery(output.deliveries, now: now) { queries.append(ready) }
        queries.append(PipelineRepository.commitQuery)
        _ = try connection.pipeline(queries)
        claimsInFlight?.committed(
            ObjectIdentifier(connection), decided: Set(output.progress.lazy.filter(\.done).map(\.seq)))
    }

    func abandon() {
        PipelineRepository.abandon(connection)
        claimsInFlight?.abandoned(ObjectIdentifier(connection))
    }
}
