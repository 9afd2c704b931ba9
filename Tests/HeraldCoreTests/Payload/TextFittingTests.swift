import Testing

@testable import HeraldCore

@Suite struct TextFittingTests {
    @Test func keepsTextThatFits() {
        let bytes = TextFitting.fit(title: "T", body: "B", limit: 100) { title, body in
            JSONValue.object(["t": title.map(JSONValue.string) ?? .null, "b": body.map(JSONValue.string) ?? .null])
                .serialized()
        }
        #expect(bytes.map { String(decoding: $0, as: UTF8.self) } == #"{"b":"B","t":"T"}"#)
    }

    @Test func cutsTheBodyFirstAtAGraphemeBoundaryWithAnEllipsis() {
        let body = String(repeating: "👩‍👩‍👧‍👦", count: 50)
        let fitted = TextFitting.fit(title: "Title", body: body, limit: 200) { title, body in
            JSONValue.object(["t": .string(title ?? ""), "b": .string(body ?? "")]).serialized()
        }!
        #expect(fitted.count <= 200)
        let parsed = Fixture.parse(fitted)!
        #expect(parsed["t"] as? String == "Title")
        let cut = parsed["b"] as! String
        #expect(cut.hasSuffix("…"))
        #expect(cut.dropLast().allSatisfy { $0 == "👩‍👩‍👧‍👦" })
        #expect(cut.count > 1)
    }

    @Test func cutsTheTitleWhenTheBodyAloneCannotMakeRoom() {
        let fitted = TextFitting.fit(title: String(repeating: "x", count: 500), body: "body", limit: 100) {
            title, body in
            JSONValue.object(["t": .string(title ?? ""), "b": .string(body ?? "")]).serialized()
        }!
        let parsed = Fixture.parse(fitted)!
        #expect(fitted.count <= 100)
        #expect((parsed["t"] as! String).hasSuffix("…"))
        #expect(parsed["b"] as? String == "")
    }

    @Test func trimsTrailingWhitespaceBeforeTheEllipsis() {
        #expect(TextFitting.truncated("hello   world", keeping: 8) == "hello…")
        #expect(TextFitting.truncated("abc", keeping: 0) == "…")
    }

    @Test(arguments: ["\"", "\n", "\\", "\u{1}", "é", "👩‍👩‍👧‍👦", "a", "ok\n", "\"\u{1}a"])
    func keepsTheLongestTextThatFitsWhateverItsEscaping(unit: String) {
        // Escaped characters free more bytes than their UTF-8 size when cut: the result must still be the longest.
        let body = String(repeating: unit, count: 300)
        let build = { (body: String) in JSONValue.object(["b": .string(body)]).serialized() }
        for limit in [40, 100, 400, 1_000] {
            let fitted = TextFitting.fit(title: nil, body: body, limit: limit) { _, body in build(body ?? "") }
            let candidates =
                [body] + (0...Array(body).count).reversed().map { TextFitting.truncated(body, keeping: $0) }
            let longest = candidates.first { build($0).count <= limit }
            #expect(
                fitted.map { String(decoding: $0, as: UTF8.self) }
                    == longest.map { String(decoding: build($0), as: UTF8.self) },
                "limit \(limit)")
        }
    }

    @Test func neverSplitsAGraphemeOverRandomText() {
        // Property: the cut text minus the ellipsis is a prefix of the original in whole grapheme clusters.
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<2_000 {
            let body = RandomText.string(length: Int.random(in: 1...300, using: &generator), using: &generator)
            let limit = Int.random(in: 20...400, using: &generator)
            guard
                let fitted = TextFitting.fit(
                    title: nil, body: body, limit: limit,
                    build: { _, body in
                        JSONValue.object(["b": .string(body ?? "")]).serialized()
                    })
            else {
                Issue.record("nothing fitted in \(limit)")
                continue
            }
            #expect(fitted.count <= limit)
            let cut = Fixture.parse(fitted)?["b"] as? String
            #expect(cut != nil)
            guard let cut, cut != body else { continue }
            if cut.isEmpty { continue }
            #expect(cut.hasSuffix("…"))
            var scalars = cut.unicodeScalars
            scalars.removeLast()
            let kept = Array(String(scalars))
            #expect(Array(Array(body).prefix(kept.count)) == kept, "cut \(cut.debugDescription)")
        }
    }
}
