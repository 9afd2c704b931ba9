import Foundation
import HeraldObservability
import HeraldPostgres

/// Reads events from a JetStream durable pull consumer into the inbox on a thread of its own. Each message is one
/// event object, stored through the same idempotent ingest as `POST /v1/events` (keyed by source and id), and
/// acknowledged only after the inbox commit; a redelivered message is a duplicate and is simply acknowledged.
/// A message that is not an acceptable event goes to the dead-letter stream with the reason, then is terminated.
struct EventStreamConsumer: BackgroundService {
    let settings: StreamSettings
    let pool: PostgresPool
    let backlog: BacklogMonitor
    let logger: Logger
    let metrics: Metrics
    let clock: @Sendable () -> Date
    private let loop = ServiceThread(name: "herald-nats-events")

    var name: String { "nats event consumer" }

    /// Consumes until stopped; a lost connection is built again after a second.
    func start() {
        loop.startRepeating { [self] in
            let (client, subscription) = try connect()
            try consume(subscription, client: client)
            return .zero
        } recover: { [self] error in
            logger.warning("nats event consumer restarts", ["error": .string(String(describing: error))])
            return .seconds(1)
        }
    }

    /// Finishes the batch in hand (its messages are acknowledged or left for redelivery) and stops.
    func stop() {
        loop.stop()
    }

    private func connect() throws -> (NATSClient, NATSPullSubscription) {
        let client = try NATSClient(servers: settings.servers, name: settings.clientName + "-events")
        try client.ensureStream(
            name: settings.eventsStream, subjects: [settings.eventsSubject], replicas: settings.replicas)
        try client.ensureStream(
            name: settings.deadLetterStream, subjects: [settings.deadLetterSubject], replicas: settings.replicas)
        let subscription = try client.pullSubscription(
            stream: settings.eventsStream, subject: settings.eventsSubject, durable: settings.consumer,
            ackWaitSeconds: 30, maxAckPending: settings.batchSize * 8)
        logger.info(
            "consuming events from nats",
            ["nats.stream": .string(settings.eventsStream), "nats.consumer": .string(settings.consumer)])
        return (client, subscription)
    }

    /// Fetches and stores until stopped; a run of failed fetches (the cluster is away) rebuilds the connection.
    private func consume(_ subscription: NATSPullSubscription, client: NATSClient) throws {
        var failures = 0
        while loop.isRunning {
            let messages: [NATSInboundMessage]
            do {
                messages = try subscription.fetch(batch: settings.batchSize, timeoutMilliseconds: 500)
                failures = 0
            } catch {
                failures += 1
                if failures >= 20 { throw error }
                loop.pause(.milliseconds(250))
                continue
            }
            if !messages.isEmpty { handle(messages, client: client) }
        }
    }

    /// Stores one fetched batch, then acknowledges or dead-letters each message.
    private func handle(_ messages: [NATSInboundMessage], client: NATSClient) {
        var batch = InboundEventBatch(bodies: messages.map(\.body))
        let outcomes: [EventIngestOutcome]
        do {
            let now = clock()
            let stored = try pool.withConnectionBlocking {
                [backlog, batch] connection -> (InboundEventBatch, [EventIngestOutcome])? in
                guard try backlog.admits(on: connection) else { return nil }
                let admitted = try batch.admittingByCategory(on: connection)
                return (admitted, try EventRepository.ingest(admitted.rows, acceptedAt: now, on: connection))
            }
            guard let stored else {
                // Too many undecided events: the messages wait in the stream, which is what it is for.
                for message in messages { try? message.nak(delayMilliseconds: 2_000) }
                metrics.increment(Self.counter, help: Self.help, labels: ["outcome": "backlog_full"], by: 1)
                loop.pause(.milliseconds(500))
                return
            }
            batch = stored.0
            outcomes = stored.1
        } catch let error as PostgresError where error.refusesData {
            // The database refused data in the batch for good (a data exception or a constraint): store the
            // messages one by one, so a single unstorable message goes to the dead letters instead of holding the
            // whole batch back on every redelivery.
            guard messages.count > 1 else {
                deadLetter(messages[0], reason: "unstorable: SQLSTATE \(error.sqlState ?? "unknown")", client: client)
                return
            }
            for message in messages { handle([message], client: client) }
            return
        } catch {
            logger.warning("nats events not stored; they will be delivered again", ["error": .string("\(error)")])
            for message in messages { try? message.nak(delayMilliseconds: 1_000) }
            loop.pause(.milliseconds(500))
            return
        }
        var accepted = 0
        for (message, verdict) in zip(messages, batch.verdicts(outcomes)) {
            switch verdict {
            case .accepted:
                accepted += 1
                acknowledge(message, outcome: "accepted")
            case .duplicate:
                acknowledge(message, outcome: "duplicate")
            case .rejected(let reason):
                deadLetter(message, reason: reason, client: client)
            }
        }
        backlog.accepted(accepted)
    }

    private func acknowledge(_ message: NATSInboundMessage, outcome: String) {
        // A lost ack only means a redelivery, which the inbox recognises as a duplicate.
        try? message.ack()
        metrics.increment(Self.counter, help: Self.help, labels: ["outcome": outcome], by: 1)
    }

    /// Publishes the message with the reason to the dead-letter stream and, once the stream has acknowledged it,
    /// terminates the original. Until then (a stream leader being elected, say) the original stays in its stream.
    private func deadLetter(_ message: NATSInboundMessage, reason: String, client: NATSClient) {
        let headers = [("Herald-Reason", reason), ("Herald-Original-Subject", message.subject)]
        // Keyed by the original's place in its stream: when the original comes back because its termination was
        // lost, the dead-letter stream drops the second letter as a duplicate.
        let letter =
            message.streamPosition.map {
                OutgoingMessage(
                    subject: settings.deadLetterSubject, body: message.body, messageId: "dead/" + $0,
                    headers: headers)
            } ?? OutgoingMessage(subject: settings.deadLetterSubject, body: message.body, headers: headers)
        do {
            try client.publish(letter)
            try? message.term()
            metrics.increment(Self.counter, help: Self.help, labels: ["outcome": "dead_letter"], by: 1)
            logger.info("nats event dead-lettered", ["nats.reason": .string(reason)])
        } catch {
            try? message.nak(delayMilliseconds: 2_000)
            logger.warning("dead letter not published", ["error": .string(String(describing: error))])
        }
    }

    static let counter = "herald_nats_events_total"
    static let help = "Events read from NATS by outcome: accepted, duplicate, dead_letter, backlog_full."
}
