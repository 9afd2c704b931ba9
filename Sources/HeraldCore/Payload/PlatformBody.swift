/// How a body is fitted into its platform's size limit. The JSON platforms (APNs, FCM, Web Push) pass what differs:
/// their limit, what a withdrawn id costs, their document and their directly written alert body; WNS fits its
/// toasts with `visible`.
enum PlatformBody {
    /// A body within its platform's limit, and whether the image was left out, or the ciphertext replaced by
    /// `fetch`, to keep it there.
    struct Fitted: Sendable, Hashable {
        var bytes: [UInt8]
        var imageDropped = false
        var ciphertextFetched = false
    }

    /// The body of `content` in at most `limit` bytes, or `nil` when even the bare identifiers do not fit.
    ///
    /// Withdrawals keep the newest collapse ids that fit (`sync` tells the document that some were left out);
    /// alerts and digests are written directly and fitted by `visible`; badge pushes are the serialized document,
    /// their text shortened the same way.
    static func fitted(
        _ content: PushContent, limit: Int, withdrawCost: (String) -> Int,
        document: (_ content: PushContent, _ title: String?, _ body: String?, _ sync: Bool) -> JSONValue,
        alertBody: (_ content: PushContent, _ title: String?, _ body: String?) -> [UInt8]
    ) -> Fitted? {
        if content.purpose == .withdraw {
            let bytes = WithdrawKeys.body(
                content, limit: limit, cost: withdrawCost, document: { document($0, nil, nil, $1) })
            return bytes.count <= limit ? Fitted(bytes: bytes) : nil
        }
        guard content.isVisible else {
            return TextFitting.fit(title: content.title, body: content.body, limit: limit) { title, body in
                document(content, title, body, false).serialized()
            }.map { Fitted(bytes: $0) }
        }
        return visible(content, limit: limit, build: alertBody)
    }

    /// `fitted` for a platform whose withdrawn ids are a plain JSON array and whose `sync` flag sits beside
    /// Herald's top-level keys (APNs, Web Push).
    static func fitted(
        _ content: PushContent, limit: Int,
        document: (_ content: PushContent, _ title: String?, _ body: String?) -> JSONValue,
        alertBody: (_ content: PushContent, _ title: String?, _ body: String?) -> [UInt8]
    ) -> Fitted? {
        fitted(
            content, limit: limit, withdrawCost: WithdrawKeys.arrayElementCost,
            document: { WithdrawKeys.flaggingSync(document($0, $1, $2), $3) }, alertBody: alertBody)
    }

    /// An alert or digest built by `build` in at most `limit` bytes.
    ///
    /// A ciphertext stays only beside the whole text: it goes into the push whole, without the image if need be;
    /// when it still does not fit, the push says `fetch` instead and the app pulls it from the feed. Then, as for
    /// every push: whole when it fits; else without its image, which goes before any text is cut; then with its
    /// text shortened (`TextFitting`).
    static func visible(
        _ content: PushContent, limit: Int,
        build: (_ content: PushContent, _ title: String?, _ body: String?) -> [UInt8]
    ) -> Fitted? {
        guard content.visibleCiphertext != nil else { return withoutCiphertext(content, limit: limit, build: build) }
        let whole = build(content, content.title, content.body)
        if whole.count <= limit { return Fitted(bytes: whole) }
        if content.visibleImage != nil {
            var imageless = content
            imageless.imageURL = nil
            let bytes = build(imageless, imageless.title, imageless.body)
            if bytes.count <= limit { return Fitted(bytes: bytes, imageDropped: true) }
        }
        var fetching = content
        fetching.ciphertext = nil
        fetching.fetch = true
        return withoutCiphertext(fetching, limit: limit, build: build).map { fitted in
            var fitted = fitted
            fitted.ciphertextFetched = true
            return fitted
        }
    }

    /// `visible` for a push without a ciphertext.
    private static func withoutCiphertext(
        _ content: PushContent, limit: Int,
        build: (_ content: PushContent, _ title: String?, _ body: String?) -> [UInt8]
    ) -> Fitted? {
        // Without an image, the content is fitted as it is: a copy would retain each of its strings again.
        guard content.visibleImage != nil else {
            return TextFitting.fit(title: content.title, body: content.body, limit: limit) { build(content, $0, $1) }
                .map { Fitted(bytes: $0) }
        }
        let whole = build(content, content.title, content.body)
        if whole.count <= limit { return Fitted(bytes: whole) }
        var imageless = content
        imageless.imageURL = nil
        return TextFitting.fit(title: imageless.title, body: imageless.body, limit: limit) { build(imageless, $0, $1) }
            .map { Fitted(bytes: $0, imageDropped: true) }
    }
}
