import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// `POST /v1/feedback`: dead-token reports from the delivery side, one report or an array of up to 1000, in
/// Herald's format or as gorush's feedback hook posts them. Permanent failures deactivate the device unless it
/// registered again after the failure; transient ones change nothing. Always 200 with one result per report.
enum FeedbackAPI {
    static let maxReports = 1000

    struct ResultView: Encodable {
        var outcome: String
        var installationId: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(installationId, forKey: .installationId)
        }

        enum CodingKeys: String, CodingKey { case outcome, installationId }
    }

    struct Results: Encodable {
        var results: [ResultView]
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.post("/v1/feedback", auth: .scope(.deliveriesConsume)) { request, _ in
            let entries: [(entry: FeedbackEntry, prefix: String)]
            if case .array(let elements) = try request.decodeJSONValue() {
                guard (1...maxReports).contains(elements.count) else {
                    throw HTTPError.invalidField("", "must hold 1 to \(maxReports) reports")
                }
                entries = try JSONCoders.decode([FeedbackEntry].self, from: request.body).enumerated().map {
                    ($1, "/\($0)")
                }
            } else {
                entries = [(try JSONCoders.decode(FeedbackEntry.self, from: request.body), "")]
            }
            let now = context.clock()
            var reports: [FeedbackReport?] = []
            var errors: [FieldError] = []
            for (entry, prefix) in entries {
                switch entry.report(now: now, prefix: prefix) {
                case .success(let report): reports.append(report)
                case .failure(let failure): errors.append(contentsOf: failure.errors)
                }
            }
            if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
            let known = reports.compactMap { $0 }
            let applied = try context.pool.withConnectionBlocking { connection in
                try FeedbackRepository.apply(known, now: now, on: connection)
            }
            var appliedResults = applied.makeIterator()
            let results = reports.map { report -> ResultView in
                guard report != nil, let result = appliedResults.next() else {
                    return ResultView(outcome: FeedbackOutcome.unsupportedPlatform.rawValue, installationId: nil)
                }
                return ResultView(outcome: result.outcome.rawValue, installationId: result.installationId)
            }
            for (report, result) in zip(known, applied) where result.outcome == .deactivated {
                context.logger.info(
                    "device deactivated",
                    [
                        "device.installation_id": .string(result.installationId ?? ""),
                        "feedback.reason": .string(String(report.reason.prefix(200))),
                    ])
            }
            return try HTTPResponse.json(Results(results: results))
        }
    }
}
