import Foundation
import HeraldObservability
import HeraldTestSupport
import Testing

@Suite struct LoggerTests {
    private func parse(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func linesAreJSONWithDottedKeys() throws {
        let capture = LogCapture()
        let logger = Logger(minimumLevel: .info, sink: capture.sink).with(["service": "herald"])
        logger.info("request", ["http.status": 201, "http.duration_ms": 1.25, "request.id": "r1", "ok": true])
        let lines = capture.all
        #expect(lines.count == 1)
        #expect(lines[0].hasSuffix("}\n"))
        let object = try parse(lines[0])
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "request")
        #expect(object["service"] as? String == "herald")
        #expect(object["http.status"] as? Int == 201)
        #expect(object["http.duration_ms"] as? Double == 1.25)
        #expect(object["ok"] as? Bool == true)
        let timestamp = try #require(object["timestamp"] as? String)
        #expect(timestamp.count == 24)
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(timestamp.hasSuffix("Z"))
        #expect(format.date(from: timestamp) != nil)
    }

    @Test(arguments: [
        "plain", "quote \" and backslash \\", "new\nline\ttab\r", "bell \u{07} nul \u{00} del \u{7F}",
        "unicode é 🚀 \u{2028}", "</script>",
    ])
    func messagesSurviveEscaping(message: String) throws {
        let capture = LogCapture()
        Logger(sink: capture.sink).warning(message, ["key\"with\nodd": .string(message)])
        let line = try #require(capture.all.first)
        #expect(line.filter { $0 == "\n" }.count == 1)
        let object = try parse(line)
        #expect(object["message"] as? String == message)
        #expect(object["key\"with\nodd"] as? String == message)
    }

    @Test func levelsBelowTheMinimumAreDropped() {
        let capture = LogCapture()
        let logger = Logger(minimumLevel: .warning, sink: capture.sink)
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        #expect(capture.all.count == 2)
        #expect(!logger.isEnabled(.info))
    }

    @Test(arguments: [("debug", Logger.Level.debug), ("INFO", .info), ("warn", .warning), ("error", .error)])
    func levelsParseByName(name: String, level: Logger.Level) {
        #expect(Logger.Level(name: name) == level)
        #expect(Logger.Level(name: level.name) == level)
    }

    @Test func unknownLevelNameIsRejected() {
        #expect(Logger.Level(name: "loud") == nil)
    }

    @Test func nonFiniteNumbersBecomeNull() throws {
        let capture = LogCapture()
        Logger(sink: capture.sink).info("n", ["x": .double(.nan), "y": .null])
        let object = try parse(try #require(capture.all.first))
        #expect(object["x"] is NSNull)
        #expect(object["y"] is NSNull)
    }
}
