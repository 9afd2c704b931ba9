import HeraldText
import Testing

@Suite("ICU version")
struct ICUVersionTests {
    @Test func versionIsMajorDotMinor() throws {
        let parts = ICUInfo.version.split(separator: ".")
        #expect(parts.count >= 2)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        #expect(try #require(Int(parts[0])) >= 72)
    }
}
