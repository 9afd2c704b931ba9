import Foundation
import HeraldCore
import Testing

@testable import HeraldPostgres

@Suite struct DeliveryRowTests {
    static func delivery(notificationId: String?, installationId: String, kind: Delivery.Kind) -> Delivery {
        Delivery(
            platform: .apns, kind: kind, userId: "u1", installationId: installationId, token: "t",
            environment: .production, headers: [:], body: [], collapseId: nil, priority: 10,
            expiresAt: Date(timeIntervalSince1970: 0), availableAt: Date(timeIntervalSince1970: 0),
            notificationId: notificationId, eventId: nil, coalesceKey: nil)
    }

    /// Ids already in queues must stay what they are: the first 16 bytes of SHA-256 over "notification NUL
    /// installation NUL kind", as hex (vectors from another SHA-256 implementation).
    @Test func idsAreTheLeadingHalfOfTheSeedsDigest() {
        #expect(
            DeliveryRow.id(for: Self.delivery(notificationId: "n-42", installationId: "inst-7", kind: .alert))
                == "cf34a3559900b8c614e639e98402d0b6")
        #expect(
            DeliveryRow.id(for: Self.delivery(notificationId: nil, installationId: "inst-7", kind: .withdraw))
                == "9a8faadd9305c3ec586696f216b9ce6f")
    }

    @Test func idsFollowTheDefinitionForLongAndMultiByteParts() {
        for (notification, installation) in [
            (String(repeating: "n", count: 200), "i"), ("żółw-🐢", "inst-\u{0}-x"), ("", ""),
        ] {
            for kind in Delivery.Kind.allCases {
                let seed = notification + "\u{0}" + installation + "\u{0}" + kind.rawValue
                let id = DeliveryRow.id(
                    for: Self.delivery(notificationId: notification, installationId: installation, kind: kind))
                #expect(id == String(SHA256.hex(seed).prefix(32)))
            }
        }
    }
}
