import Foundation
import HeraldCore
import HeraldHTTP

/// The JSON body of a request that carries events or a campaign, read by Herald's own parser.
enum EventBodyParser {
    /// The JSON body of an ingest request, with the same answers as `HTTPRequest.decodeJSONValue()`: a non-JSON
    /// content type or an empty body is a 400, broken syntax a 400.
    static func body(of request: HTTPRequest) throws -> JSONValue {
        if let contentType = request.headers["content-type"] {
            let mediaType =
                contentType.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
                .lowercased() ?? ""
            guard
                mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
            else {
                throw HTTPError.badRequest(
                    "The body must be JSON, sent with Content-Type: application/json.", type: "unsupported-content-type"
                )
            }
        }
        guard !request.body.isEmpty else {
            throw HTTPError.malformedJSON("The request body is empty; a JSON document is required.")
        }
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw HTTPError.malformedJSON()
        }
    }
}
