import Foundation
import Testing

@testable import HeraldCore

/// WNS goldens: the exact headers and toast, badge or raw body of every kind in every delivery mode, each also
/// checked against the WNS rules it embodies. WNS has no app-built notification, so `app` mode sends a toast with
/// the fallback text.
@Suite struct WNSGoldenTests {
    static let cases: [GoldenCase] =
        GoldenCase.perMode(.alert, headers: alertHeaders, alertSystemBody, alertAppBody, alertCombinedBody)
        + GoldenCase.sameInEveryMode(.digest, headers: digestHeaders, body: digestBody)
        + GoldenCase.sameInEveryMode(.withdraw, headers: withdrawHeaders, body: withdrawBody)
        + GoldenCase.sameInEveryMode(.badge, headers: badgeHeaders, body: badgeBody)
        + GoldenCase.perMode(
            .silencedSingle, headers: silencedSingleHeaders, silencedSingleSystemBody, silencedSingleAppBody,
            silencedSingleCombinedBody)

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        let content = Golden.content(golden.kind, mode: golden.mode)
        let delivery = try #require(Golden.delivery(golden.kind, mode: golden.mode, platform: .wns))
        #expect(delivery.headers == golden.headers)
        let expected = golden.kind == .withdraw ? Golden.compact(golden.body) : golden.body
        #expect(delivery.bodyText == expected)

        // The rules the golden embodies.
        let headers = delivery.headers
        #expect(delivery.body.count <= WNSPayload.maxBodyBytes)
        #expect(headers["X-WNS-TTL"] == String(Golden.ttlSeconds(content)))
        #expect(delivery.priority == (content.isUrgent ? 10 : 5))
        switch golden.kind {
        case .alert, .digest, .silencedSingle:
            #expect(headers["X-WNS-Type"] == "wns/toast" && headers["Content-Type"] == "text/xml")
            let tag = try #require(headers["X-WNS-Tag"])
            #expect(tag == CollapseIdentifier.wnsTag(for: content.collapseId ?? ""))
            #expect(tag.count <= 16 && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            // Tag and group together name a toast; a thread group would keep the digest from replacing it.
            #expect(headers["X-WNS-Group"] == nil)
            #expect(delivery.bodyText.contains("<audio silent=\"true\"/>") == content.silenced)
        case .withdraw:
            #expect(headers["X-WNS-Type"] == "wns/raw" && headers["Content-Type"] == "application/octet-stream")
            let body = try #require(Fixture.parse(delivery.body))
            #expect(body["withdraw"] as? [String] == content.withdrawIds.map(CollapseIdentifier.wnsTag(for:)))
        case .badge:
            #expect(headers["X-WNS-Type"] == "wns/badge" && headers["Content-Type"] == "text/xml")
        }
        Golden.expectPlatformRules(delivery, content)
    }

    @Test func digestReplacesTheBurstsFirstToastByTag() {
        #expect(Self.alertHeaders["X-WNS-Tag"] == Self.digestHeaders["X-WNS-Tag"])
        #expect(Self.withdrawBody.contains(Self.alertHeaders["X-WNS-Tag"]!))
        #expect(Self.withdrawBody.contains(Self.silencedSingleHeaders["X-WNS-Tag"]!))
    }
}

extension WNSGoldenTests {
    static let alertHeaders: [String: String] = [
        "Content-Type": "text/xml",
        "X-WNS-TTL": "86400",
        "X-WNS-Tag": "4e7e44d378bd00cc",
        "X-WNS-Type": "wns/toast",
    ]

    static let alertSystemBody = Golden.xml(
        #"""
        <toast launch="5d41402abc4b2a76b9719d911017c592">
            <visual>
                <binding template="ToastGeneric">
                    <text>Asha</text>
                    <text>Lunch at 1? &quot;Café&quot; &lt;3</text>
                </binding>
            </visual>
        </toast>
        """#)

    static let alertAppBody = Golden.xml(
        #"""
        <toast launch="5d41402abc4b2a76b9719d911017c592">
            <visual>
                <binding template="ToastGeneric">
                    <text>New message</text>
                </binding>
            </visual>
        </toast>
        """#)

    static let alertCombinedBody = Golden.xml(
        #"""
        <toast launch="5d41402abc4b2a76b9719d911017c592">
            <visual>
                <binding template="ToastGeneric">
                    <text>Asha</text>
                    <text>Lunch at 1? &quot;Café&quot; &lt;3</text>
                </binding>
            </visual>
        </toast>
        """#)

    static let digestHeaders: [String: String] = [
        "Content-Type": "text/xml",
        "X-WNS-TTL": "86100",
        "X-WNS-Tag": "4e7e44d378bd00cc",
        "X-WNS-Type": "wns/toast",
    ]

    /// The same bytes in every delivery mode.
    static let digestBody = Golden.xml(
        #"""
        <toast launch="7b8b965ad4bca0e41ab51de7b31363a1">
            <visual>
                <binding template="ToastGeneric">
                    <text>3 new messages</text>
                    <text>From Asha and 2 others</text>
                </binding>
            </visual>
        </toast>
        """#)

    static let withdrawHeaders: [String: String] = [
        "Content-Type": "application/octet-stream",
        "X-WNS-Cache-Policy": "cache",
        "X-WNS-TTL": "86400",
        "X-WNS-Type": "wns/raw",
    ]

    /// The same bytes in every delivery mode.
    static let withdrawBody = #"""
        {
            "badge": 2,
            "cat": "herald.read",
            "kind": "withdraw",
            "nid": "c4ca4238a0b923820dcc509a6f75849b",
            "v": 1,
            "withdraw": [
                "4e7e44d378bd00cc",
                "a200779402d76af3"
            ]
        }
        """#

    static let badgeHeaders: [String: String] = [
        "Content-Type": "text/xml",
        "X-WNS-TTL": "86400",
        "X-WNS-Type": "wns/badge",
    ]

    /// The same bytes in every delivery mode.
    static let badgeBody = #"<badge value="2"/>"#

    static let silencedSingleHeaders: [String: String] = [
        "Content-Type": "text/xml",
        "X-WNS-TTL": "86400",
        "X-WNS-Tag": "a200779402d76af3",
        "X-WNS-Type": "wns/toast",
    ]

    static let silencedSingleSystemBody = Golden.xml(
        #"""
        <toast launch="a87ff679a2f3e71d9181a67b7542122c">
            <visual>
                <binding template="ToastGeneric">
                    <text>Asha</text>
                    <text>Are you around?</text>
                </binding>
            </visual>
            <audio silent="true"/>
        </toast>
        """#)

    static let silencedSingleAppBody = Golden.xml(
        #"""
        <toast launch="a87ff679a2f3e71d9181a67b7542122c">
            <visual>
                <binding template="ToastGeneric">
                    <text>New mention</text>
                </binding>
            </visual>
            <audio silent="true"/>
        </toast>
        """#)

    static let silencedSingleCombinedBody = Golden.xml(
        #"""
        <toast launch="a87ff679a2f3e71d9181a67b7542122c">
            <visual>
                <binding template="ToastGeneric">
                    <text>Asha</text>
                    <text>Are you around?</text>
                </binding>
            </visual>
            <audio silent="true"/>
        </toast>
        """#)
}
