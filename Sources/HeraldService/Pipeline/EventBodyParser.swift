import Foundation
import HeraldCore
import HeraldHTTP

/// The JSON body of a request that carries events or a campaign, read by Herald's own parser.
enum EventBodyParser {
    /// The JSON body of an ingest request, with the same answers as `HTTPRequest.decodeJSONValue()`: a non-JSON
    /// content type is a 415, an empty body or broken syntax a 400, a `\u0000` escape in valid JSON a 422.
    static func body(of request: HTTPRequest) throws -> JSONValue {
        try request.requireJSONBody()
        do {
            return try JSONParser.parse(request.body)
        } catch {
            // The parser refuses U+0000 as it reads; only a refused body pays for looking for why.
            throw NULEscape.isPresent(in: request.body)
                ? NULEscape.problem(in: request.body) : HTTPError.malformedJSON()
        }
    }
}
