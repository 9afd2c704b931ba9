import Foundation

/// The NATS side of the configuration, as the consumer and the relay use it.
struct StreamSettings: Sendable, Equatable {
    var servers: [String]
    var eventsStream: String
    var eventsSubject: String
    var consumer: String
    var deadLetterSubject: String
    var deliveriesStream: String
    var replicas: Int
    var batchSize: Int
    /// The connection name servers show, e.g. `herald-<host>`.
    var clientName: String

    /// The subject prefix deliveries are published under: `herald.deliveries.<platform>`.
    static let deliveriesPrefix = "herald.deliveries"

    init(config: ServiceConfig, clientName: String = "herald-" + ProcessInfo.processInfo.hostName) {
        servers = config.natsServers
        eventsStream = config.natsEventsStream
        eventsSubject = config.natsEventsSubject
        consumer = config.natsConsumer
        deadLetterSubject = config.natsDeadLetterSubject
        deliveriesStream = config.natsDeliveriesStream
        replicas = config.natsReplicas
        batchSize = config.natsBatchSize
        self.clientName = clientName
    }
}
