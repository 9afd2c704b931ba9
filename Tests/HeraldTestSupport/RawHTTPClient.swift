import Glibc

/// A minimal blocking HTTP/1.1 client over a POSIX socket, so server tests see exactly what goes over the wire.
/// It allocates nothing but its own buffers and runs no threads of its own, unlike Foundation's URLSession, whose
/// Linux implementation has known use-after-free crashes around refused connections and timeouts.
public final class RawHTTPClient {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// The `errno` of a failed system call, when one failed.
        public var code: Int32 = 0
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; sends and receives time out after `timeoutSeconds` so a broken server fails
    /// the test.
    public init(port: UInt16, timeoutSeconds: Int = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close here: every stored property is set, so `deinit` runs when this throws, and closes the socket.
        guard result == 0 else { throw Failure(description: "connect failed: errno \(errno)") }
    }

    deinit {
        close(fd)
    }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)", code: errno) }
            offset += written
        }
    }

    /// Sends a request with `Content-Length` for the body.
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try send(Array(head.utf8) + body)
    }

    /// Sends a request and reads its response. A server may answer before the body is read (a 401 or a 413 on
    /// the headers) and close; as HTTP clients do, a send cut off that way still reads the answer already sent.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Response {
        do {
            try send(method, target, headers: headers, body: body)
        } catch let failure as Failure where failure.code == EPIPE || failure.code == ECONNRESET {
            guard let early = try? readResponse(bodyExpected: method != "HEAD") else { throw failure }
            return early
        }
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response; the body is framed by `Content-Length` or by chunked transfer coding.
    public func readResponse(bodyExpected: Bool = true) throws -> Response {
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: " "))
        }
        let chunked = headers.contains {
            $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked")
        }
        if bodyExpected && chunked {
            return Response(status: status, headers: headers, body: try readChunkedBody())
        }
        let length =
            bodyExpected
            ? headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0 : 0
        while buffer.count < length {
            try receiveMore()
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection (a read returns end of file).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// The chunks of a chunked body up to the last, empty one (trailers are skipped).
    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let size = line.split(separator: ";").first.flatMap { Int($0.trimmingCharacters(in: " "), radix: 16) }
            guard let size else { throw Failure(description: "bad chunk size line") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            while buffer.count < size + 2 { try receiveMore() }
            body.append(contentsOf: buffer[..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// One CRLF-terminated line, without its end.
    private func readLine() throws -> Substring {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return Substring(line)
            }
            try receiveMore()
        }
    }

    private func readUntilHeadEnd() throws -> Int {
        let marker: [UInt8] = [13, 10, 13, 10]
        while true {
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4) where buffer[index..<index + 4].elementsEqual(marker) {
                    return index
                }
            }
            try receiveMore()
        }
    }

    private func receiveMore() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else {
            throw Failure(description: count == 0 ? "connection closed" : "recv errno \(errno)")
        }
        buffer.append(contentsOf: chunk[..<count])
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
