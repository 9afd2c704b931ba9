import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

/// `herald campaign` against canned replies: every page listed, and a follow that ends.
@Suite("herald campaign")
struct CampaignCommandTests {
    static func campaign(_ id: String) -> JSONValue {
        .object(["id": .string(id), "status": .string("completed"), "planned": .int(1), "enqueued": .int(1)])
    }

    @Test func listGoesOnWhileThereIsANextCursor() throws {
        var asked: [String] = []
        let listed = try CampaignCommand.summaries { path in
            asked.append(path)
            if asked.count == 1 {
                return CampaignClient.Reply(
                    status: 200,
                    body: .object([
                        "items": .array((1...200).map { Self.campaign("c\($0)") }), "next_cursor": .string("c200/+"),
                    ]))
            }
            return CampaignClient.Reply(
                status: 200, body: .object(["items": .array([Self.campaign("c201")]), "next_cursor": .null]))
        }
        #expect(asked == ["/v1/campaigns?limit=200", "/v1/campaigns?limit=200&cursor=c200%2F%2B"])
        #expect(listed.lines.count == 201)
        #expect(listed.lines.last?.hasPrefix("c201  completed") == true)
        #expect(listed.refused == nil)
    }

    @Test func listStopsAtARefusal() throws {
        let listed = try CampaignCommand.summaries { _ in
            CampaignClient.Reply(status: 403, body: .object(["title": .string("Forbidden")]))
        }
        #expect(listed.lines.isEmpty)
        #expect(listed.refused?.status == 403)
    }

    @Test("A completed campaign is followed until the server says it is settled")
    func followEndsWhenTheCampaignIsSettled() throws {
        var polls = 0
        let status = try CampaignCommand.follow("movers") { path in
            polls += 1
            #expect(path == "/v1/campaigns/movers")
            // Completed on the first poll, with one of the two it handed out still being decided.
            guard polls <= 2 else { throw CampaignClient.Failure(description: "still following") }
            return CampaignClient.Reply(
                status: 200,
                body: .object([
                    "status": .string("completed"), "enqueued": .int(2), "decided": .int(polls == 1 ? 1 : 2),
                    "settled": .bool(polls == 2),
                    "waves": .array([.object(["state": .string("done"), "planned": .int(3)])]),
                ]))
        }
        #expect(status == 0)
        #expect(polls == 2)
    }
}
