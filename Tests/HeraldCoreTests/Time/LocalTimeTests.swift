import Foundation
import Testing

@testable import HeraldCore

@Suite("Local time of day")
struct LocalTimeTests {
    @Test(
        "Parses HH:MM", arguments: [("00:00", 0), ("07:05", 425), ("22:00", 1320), ("23:59", 1439)])
    func parses(text: String, minutes: Int) throws {
        let time = try #require(LocalTime(text))
        #expect(time.minutesSinceMidnight == minutes)
        #expect(time.text == text)
    }

    @Test(
        "Rejects anything else",
        arguments: ["24:00", "7:00", "07:60", "0700", "07:00:00", "", "ab:cd", " 7:00", "-1:00"])
    func rejects(text: String) {
        #expect(LocalTime(text) == nil)
    }

    @Test("Codes as a string")
    func codable() throws {
        let data = try JSONEncoder().encode([LocalTime("22:00")!])
        #expect(String(decoding: data, as: UTF8.self) == "[\"22:00\"]")
        #expect(try JSONDecoder().decode([LocalTime].self, from: data) == [LocalTime("22:00")!])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalTime].self, from: Data("[\"25:00\"]".utf8))
        }
    }

    @Test("Orders within a day")
    func ordering() {
        #expect(LocalTime("07:00")! < LocalTime("22:00")!)
        #expect(LocalTime(hour: 23, minute: 59) != nil && LocalTime(hour: 0, minute: 60) == nil)
    }
}
