import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// A request with many bad members gets an answer of bounded size, in time that grows with the request, not with
/// its square: a list over its limit is one error, and an answer lists at most `FieldError.listedAtMost`.
@Suite struct FieldErrorLimitsTests {
    static func event(userIds: [String]) -> IncomingEvent.Parsed {
        let ids = userIds.map { "\"\($0)\"" }.joined(separator: ",")
        let body =
            #"{"id":"e1","source":"chat","category":"chat.message","occurred_at":"2026-12-01T09:00:00Z","recipients":[\#(ids)]}"#
        return IncomingEvent.parse(try! JSONParser.parse(Array(body.utf8)))
    }

    @Test func recipientsOverTheLimitAreOneError() {
        guard case .invalid(let errors) = Self.event(userIds: Array(repeating: "", count: Event.maxUserIds + 1))
        else {
            Issue.record("an event with too many recipients was accepted")
            return
        }
        #expect(errors.map(\.pointer) == ["/recipients/user_ids"])
    }

    @Test func anEventListsAtMostTheFirstHundredErrors() {
        guard case .invalid(let errors) = Self.event(userIds: Array(repeating: "", count: 5_000)) else {
            Issue.record("an event with empty recipients was accepted")
            return
        }
        #expect(errors.count == FieldError.listedAtMost)
        #expect(errors.first?.pointer == "/recipients/user_ids/0")
        #expect(errors.last?.pointer == "/recipients/user_ids/99")
    }

    @Test func aProblemListsAtMostTheFirstHundredErrorsAndCountsThemAll() {
        let errors = (0..<250).map { FieldError(pointer: "/items/\($0)", message: "bad") }
        let problem = HTTPError.invalidFields(errors)
        #expect(problem.errors == Array(errors.prefix(100)))
        #expect(problem.detail == "250 members are invalid, the first 100 listed.")
        #expect(HTTPError.invalidFields(Array(errors.prefix(3))).detail == "3 members are invalid.")
    }

    @Test func readsAndReceiptsOverTheLimitAreOneError() throws {
        let reads = ReadsAPI.ReadBody(
            itemIds: Array(repeating: "", count: ReadsAPI.maxItems + 1), threadId: nil, device: nil)
        #expect(throws: HTTPError.invalidField("/item_ids", "at most \(ReadsAPI.maxItems) items")) {
            try ReadsAPI.validate(reads, userId: "u1")
        }
        let receipt = MeReceiptsAPI.ReceiptBody(
            notificationId: "", device: "", event: "displayed", at: Date(timeIntervalSince1970: 0))
        let receipts = MeReceiptsAPI.ReceiptsBody(
            receipts: Array(repeating: receipt, count: MeReceiptsAPI.maxReceipts + 1))
        #expect(
            throws: HTTPError.invalidField("/receipts", "at most \(MeReceiptsAPI.maxReceipts) receipts per request")
        ) {
            try MeReceiptsAPI.validate(receipts)
        }
    }
}
