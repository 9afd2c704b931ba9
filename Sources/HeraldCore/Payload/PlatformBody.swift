/// How the JSON platforms (APNs, FCM, Web Push) fit a body into their size limit, each passing what differs: its
/// limit, what a withdrawn id costs, its document and its directly written alert body.
enum PlatformBody {
    /// The body of `content` in at most `limit` bytes, or `nil` when even the bare identifiers do not fit.
    ///
    /// Withdrawals keep the newest collapse ids that fit (`sync` tells the document that some were left out);
    /// alerts and digests are written directly and their text shortened until they fit; badge pushes are the
    /// serialized document, fitted the same way.
    static func fitted(
        _ content: PushContent, limit: Int, withdrawCost: (String) -> Int,
        document: (_ content: PushContent, _ title: String?, _ body: String?, _ sync: Bool) -> JSONValue,
        alertBody: (_ title: String?, _ body: String?) -> [UInt8]
    ) -> [UInt8]? {
        if content.purpose == .withdraw {
            let bytes = WithdrawKeys.body(
                content, limit: limit, cost: withdrawCost, document: { document($0, nil, nil, $1) })
            return bytes.count <= limit ? bytes : nil
        }
        guard content.isVisible else {
            return TextFitting.fit(title: content.title, body: content.body, limit: limit) { title, body in
                document(content, title, body, false).serialized()
            }
        }
        return TextFitting.fit(title: content.title, body: content.body, limit: limit, build: alertBody)
    }

    /// `fitted` for a platform whose withdrawn ids are a plain JSON array and whose `sync` flag sits beside
    /// Herald's top-level keys (APNs, Web Push).
    static func fitted(
        _ content: PushContent, limit: Int,
        document: (_ content: PushContent, _ title: String?, _ body: String?) -> JSONValue,
        alertBody: (_ title: String?, _ body: String?) -> [UInt8]
    ) -> [UInt8]? {
        fitted(
            content, limit: limit, withdrawCost: WithdrawKeys.arrayElementCost,
            document: { WithdrawKeys.flaggingSync(document($0, $1, $2), $3) }, alertBody: alertBody)
    }
}
