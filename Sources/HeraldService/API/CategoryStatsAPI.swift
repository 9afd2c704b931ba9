import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `GET /v1/categories/{id}/stats`: what the apps reported for a category's notifications, so product managers see
/// which categories users ignore.
enum CategoryStatsAPI {
    struct StatsView: Encodable {
        var category: String
        var displayed: Int
        var opened: Int
        var dismissed: Int
        var openedPerDisplayed: Double?
        var dismissedPerDisplayed: Double?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(category, forKey: .category)
            try container.encode(displayed, forKey: .displayed)
            try container.encode(opened, forKey: .opened)
            try container.encode(dismissed, forKey: .dismissed)
            try container.encode(openedPerDisplayed, forKey: .openedPerDisplayed)
            try container.encode(dismissedPerDisplayed, forKey: .dismissedPerDisplayed)
        }

        enum CodingKeys: String, CodingKey {
            case category, displayed, opened, dismissed
            case openedPerDisplayed = "opened_per_displayed"
            case dismissedPerDisplayed = "dismissed_per_displayed"
        }
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.get("/v1/categories/{id}/stats", auth: .scope(.categoriesWrite)) { _, match in
            let id = try match.parameter("id")
            guard CategoryRules.isSlug(id) else { throw HTTPError.notFound("No category has this id.") }
            let counts = try context.pool.withConnectionBlocking { connection -> ReceiptCounts? in
                guard try CategoryRepository.find(id: id, on: connection) != nil else { return nil }
                return try ReceiptRepository.counts(categoryId: id, on: connection)
            }
            guard let counts else { throw HTTPError.notFound("No category has this id.") }
            let displayed = Double(counts.displayed)
            return try HTTPResponse.json(
                StatsView(
                    category: id, displayed: counts.displayed, opened: counts.opened, dismissed: counts.dismissed,
                    openedPerDisplayed: counts.displayed > 0 ? Double(counts.opened) / displayed : nil,
                    dismissedPerDisplayed: counts.displayed > 0 ? Double(counts.dismissed) / displayed : nil))
        }
    }
}
