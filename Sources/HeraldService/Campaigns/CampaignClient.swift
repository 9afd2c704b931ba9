import Foundation
import HeraldHTTP
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP side of `herald campaign`: one blocking request at a time against a running server.
struct CampaignClient: Sendable {
    let baseURL: String
    let key: String

    /// A reply: the status and the body parsed as JSON (`.null` when it is not JSON).
    struct Reply: Sendable {
        var status: Int
        var body: HeraldHTTP.JSONValue
    }

    /// A transport failure (the server is unreachable), described without the key.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request and waits for the reply. Runs on the command's own thread, never on the cooperative pool.
    func send(_ method: String, _ path: String, json: String? = nil) throws -> Reply {
        guard let url = URL(string: baseURL.trimmingSuffix("/") + path) else {
            throw Failure(description: "not a URL: \(baseURL)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 30
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let outcome = Mutex<Result<Reply, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            let result: Result<Reply, Failure>
            if let error {
                result = .failure(
                    Failure(description: "cannot reach \(url.host ?? "the server"): \(error.localizedDescription)"))
            } else {
                let bytes = Array(data ?? Data())
                result = .success(
                    Reply(
                        status: (response as? HTTPURLResponse)?.statusCode ?? 0,
                        body: (try? HeraldHTTP.JSONValue(parsing: bytes)) ?? .null))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }.resume()
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

extension String {
    /// The string without one trailing `suffix`.
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
