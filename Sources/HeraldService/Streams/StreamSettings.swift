import Foundation

/// The NATS side of the configuration, as the consumer and the relay use it.
struct StreamSettings: Sendable, Equatable {
    var servers: [String]
    var eventsStream: String
    var eventsSubject: String
    var consumer: String
    var deadLetterSubject: String
    var deadLetterStream: String
    var deliveriesStream: String
    var replicas: Int
    var batchSize: Int
    /// The connection name servers show, e.g. `herald-<host>`.
    var clientName: String

    /// This machine's name (a pod's name in Kubernetes), without the DNS lookups `ProcessInfo.hostName` may do.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The subject prefix deliveries are published under: `herald.deliveries.<platform>`.
    static let deliveriesPrefix = "herald.deliveries"

    init(config: ServiceConfig, clientName: String = "herald-" + StreamSettings.hostName()) {
        servers = config.natsServers
        eventsStream = config.natsEventsStream
        eventsSubject = config.natsEventsSubject
        consumer = config.natsConsumer
        deadLetterSubject = config.natsDeadLetterSubject
        deadLetterStream = config.natsDeadLetterStream
        deliveriesStream = config.natsDeliveriesStream
        replicas = config.natsReplicas
        batchSize = config.natsBatchSize
        self.clientName = clientName
    }
}
