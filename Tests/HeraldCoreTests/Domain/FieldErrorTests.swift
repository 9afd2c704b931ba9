import Foundation
import Testing

@testable import HeraldCore

/// A field error's JSON tree says what its `Codable` form says, so either may write it into a response.
@Suite("Field errors")
struct FieldErrorTests {
    static let errors = [
        FieldError(pointer: "/recipients", message: "must not be empty"),
        FieldError(pointer: "/templates/pl/body", code: "icu_syntax", message: "unclosed argument", offset: 17),
        FieldError(pointer: "", code: "too_large", message: "the body is \"too\" large / 1 MB"),
    ]

    @Test(arguments: errors)
    func theTreeIsTheCodableForm(_ error: FieldError) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let codable = try JSONParser.parse(Array(try encoder.encode(error)))
        #expect(error.json == codable)
        #expect(try JSONParser.parse(error.json.serialized()) == codable)
    }

    @Test func theExplanationIsCalledDetail() {
        let json = Self.errors[1].json
        #expect(json["detail"] == .string("unclosed argument"))
        #expect(json["message"] == nil)
        #expect(json["offset"] == .int(17))
        #expect(Self.errors[0].json["code"] == nil)
    }
}
