import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PostgresListenerTests {
    @Test func deliversNotificationsOfListenedChannelsOnly() async throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let listener = try PostgresListener(conninfo: conninfo, channels: ["deliveries", "Odd Channel"])
        var events = listener.events.makeAsyncIterator()
        #expect(await events.next() == .listening)
        let sender = try PostgresConnection(conninfo: conninfo)
        try sender.notify("ignored", payload: "nobody listens")
        try sender.notify("deliveries", payload: "42")
        try sender.transaction { connection in
            try connection.notify("Odd Channel", payload: "ünï 1")
            try connection.notify("deliveries", payload: "")
        }
        var received: [PostgresNotification] = []
        while received.count < 3, case .notification(let notification) = await events.next() {
            received.append(notification)
        }
        #expect(received.map(\.channel) == ["deliveries", "Odd Channel", "deliveries"])
        #expect(received.map(\.payload) == ["42", "ünï 1", ""])
        #expect(received.allSatisfy { $0.senderPID == sender.backendPID })
        listener.stop()
        #expect(await events.next() == nil)
    }

    @Test func listensAgainAfterItsBackendIsTerminated() async throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let listener = try PostgresListener(conninfo: conninfo, channels: ["wake"])
        var events = listener.events.makeAsyncIterator()
        #expect(await events.next() == .listening)
        let admin = try PostgresConnection(conninfo: conninfo)
        let terminated = try admin.query(
            Query(
                name: "test.terminate",
                sql: """
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                    """)
        ).single().int(0)
        #expect(terminated == 1)
        #expect(await events.next() == .listening)
        try admin.notify("wake", payload: "after reconnect")
        #expect(
            await events.next()
                == .notification(
                    PostgresNotification(channel: "wake", payload: "after reconnect", senderPID: admin.backendPID)))
        listener.stop()
    }
}
