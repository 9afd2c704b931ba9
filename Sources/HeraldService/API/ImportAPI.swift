import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// `POST /v1/users:import`: bulk users (and their devices) as NDJSON, one user per line. Good lines load, bad lines
/// are reported by line number, pointer and detail. The route accepts bodies up to `UserImport.maxBodyBytes`,
/// far above the server-wide limit.
enum ImportAPI {
    static func register(on router: inout Router, context: ServiceContext) {
        router.post("/v1/users:import", auth: .scope(.usersWrite), maxBodyBytes: UserImport.maxBodyBytes) {
            request, _ in
            let mediaType = request.headers["content-type"]?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            // text/plain is accepted as well, for tools that cannot send a custom media type.
            guard mediaType == "application/x-ndjson" || mediaType == "text/plain" else {
                throw HTTPError.unsupportedContentType(
                    "Send one JSON user per line with Content-Type: application/x-ndjson.")
            }
            let body = request.body
            let now = context.clock()
            let started = ContinuousClock.now
            let summary = try context.pool.withConnectionBlocking { [zones = context.zones] connection in
                try UserImport.run(body: body, now: now, zones: zones, on: connection)
            }
            let elapsed = ContinuousClock.now - started
            context.logger.info(
                "users imported",
                [
                    "import.lines": .int(summary.lines), "import.failed_lines": .int(summary.failedLines),
                    "import.users": .int(summary.users), "import.devices": .int(summary.devices),
                    "import.duration_ms": .int(
                        Int(
                            elapsed.components.seconds * 1000
                                + elapsed.components.attoseconds / 1_000_000_000_000_000)),
                ])
            return try HTTPResponse.json(summary)
        }
    }
}
