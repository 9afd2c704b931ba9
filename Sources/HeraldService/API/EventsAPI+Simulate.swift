import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

extension EventsAPI {
    /// Recipients a simulation decides at most (the first page of a topic).
    static let simulationRecipients = 1_000

    /// Runs the workers' decision on the current state at `at` (default now) inside a read-only transaction that
    /// is rolled back: nothing is written, no lock is taken.
    static func simulate(_ request: HTTPRequest, _ environment: PipelineEnvironment) throws -> HTTPResponse {
        let tree = try EventBodyParser.body(of: request)
        var at = environment.context.clock()
        if case .object(let members) = tree, let value = members["at"], !value.isNull {
            guard case .string(let text) = value, let instant = ISO8601.parse(text) else {
                throw HTTPError.invalidField("/at", "must be an RFC 3339 date-time such as 2026-12-01T23:30:00Z")
            }
            at = instant
        }
        let incoming: IncomingEvent
        switch IncomingEvent.parse(tree, extraMembers: ["at"]) {
        case .invalid(let errors): throw HTTPError.invalidFields(errors)
        case .event(let event): incoming = event
        }
        guard !ReadEvent.isRead(incoming.event) else {
            throw HTTPError.invalidField("/category", "reads change state and cannot be simulated")
        }
        let event = incoming.event
        let now = at
        let processor = BatchProcessor(decider: environment.decider, limits: BatchLimits())
        let simulated = try environment.database { connection -> Simulation? in
            try connection.transaction(.repeatableRead) { connection in
                // Only reads, which a simulation refuses, would write through the store.
                let store = PostgresDecisionStore(connection)
                let categories = try store.categories([event.category])
                guard categories[event.category] != nil else { return nil }
                var recipients = event.recipients.userIds
                var truncated = false
                if let topic = FanoutPage.topic(of: event) {
                    // The first batch's page, as a worker would decide it.
                    let page = FanoutPage(
                        named: event.recipients.userIds,
                        subscribers: try store.topicPages([(topic, "")], limit: simulationRecipients)[0],
                        firstPage: true, pageSize: simulationRecipients)
                    recipients = page.recipients
                    truncated = !page.isLast
                }
                let snapshot = try store.recipients(recipients, now: now, lock: false)
                var book = RecipientBook(snapshot)
                var output = BatchOutput()
                let claim = EventClaim(
                    seq: 0, source: event.source, id: event.id, categoryId: event.category,
                    document: incoming.document, fanoutAfter: nil, recipientsDecided: 0)
                let work = BatchProcessor.Work(
                    claim: claim, event: event, recipients: recipients,
                    progress: EventProgress(seq: 0, done: true, fanoutAfter: nil, recipients: recipients.count))
                try processor.decide(
                    work, categories: categories, book: &book, output: &output, store: store, now: now)
                return Simulation(at: now, output: output, truncated: truncated)
            }
        }
        guard let simulated else { throw HTTPError.invalidField("/category", "no category has this id") }
        return try HTTPResponse.json(SimulationView(simulated, source: event.source, id: event.id))
    }

    /// A simulation's result before it is shown.
    struct Simulation: Sendable {
        var at: Date
        var output: BatchOutput
        var truncated: Bool
    }

    /// One delivery a simulation would queue, as the queue would hold it but for the device's push token, which is
    /// `redactedToken` wherever it would appear: a key that may publish events may not read users' devices.
    struct SimulatedDelivery: Encodable {
        static let redactedToken = "[push token]"

        var id: String
        var installationId: String
        var platform: String
        var kind: String
        var headers: [String: String]
        var body: String
        var collapseId: String?
        var priority: Int
        var availableAt: Date
        var expiresAt: Date

        init(_ row: DeliveryRow) {
            id = row.id
            installationId = row.delivery.installationId
            platform = row.delivery.platform.rawValue
            kind = row.delivery.kind.rawValue
            let token = row.delivery.token
            let redact = { (text: String) in
                token.isEmpty ? text : text.replacingOccurrences(of: token, with: Self.redactedToken)
            }
            headers = row.delivery.headers.mapValues(redact)
            body = redact(row.delivery.bodyText)
            collapseId = row.delivery.collapseId
            priority = row.delivery.priority
            availableAt = row.delivery.availableAt
            expiresAt = row.delivery.expiresAt
        }
    }

    /// One recipient in a simulation.
    struct SimulatedRecipient: Encodable {
        var decision: RecipientDecisionView
        var deliveries: [SimulatedDelivery]

        func encode(to encoder: any Encoder) throws {
            try decision.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(deliveries, forKey: .deliveries)
        }

        enum CodingKeys: String, CodingKey { case deliveries }
    }

    /// The answer to a simulation.
    struct SimulationView: Encodable {
        var at: Date
        var source: String
        var id: String
        var recipients: [SimulatedRecipient]
        /// Whether a topic had more subscribers than were simulated.
        var truncated: Bool

        init(_ simulation: Simulation, source: String, id: String) {
            at = simulation.at
            self.source = source
            self.id = id
            truncated = simulation.truncated
            let rows = Dictionary(
                simulation.output.deliveries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            recipients = simulation.output.decisions.map { record in
                SimulatedRecipient(
                    decision: RecipientDecisionView(record),
                    deliveries: record.deliveryIds.compactMap { rows[$0] }.map(SimulatedDelivery.init))
            }
        }
    }
}
