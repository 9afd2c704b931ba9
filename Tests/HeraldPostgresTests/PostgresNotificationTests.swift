import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PostgresNotificationTests {
    /// A connection that listens for itself gets what was committed on its channels while it waited, and nothing once
    /// its wait runs out.
    @Test func aListeningConnectionWaitsForItsNotifications() throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let watcher = try PostgresConnection(conninfo: conninfo)
        try watcher.listen("ready")
        #expect(try watcher.notifications(waitingAtMost: .milliseconds(20)).isEmpty)

        let sender = try PostgresConnection(conninfo: conninfo)
        try sender.transaction { connection in
            try connection.notify("ready", payload: "first")
            try connection.notify("elsewhere", payload: "not listened to")
        }
        try sender.notify("ready", payload: "second")
        var payloads: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while payloads.count < 2, ContinuousClock.now < deadline {
            payloads += try watcher.notifications(waitingAtMost: .milliseconds(200)).map(\.payload)
        }
        #expect(payloads == ["first", "second"])
        #expect(try watcher.notifications(waitingAtMost: .milliseconds(20)).isEmpty)
    }
}
