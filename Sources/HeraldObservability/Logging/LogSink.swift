#if canImport(Glibc)
    import Glibc
#endif

/// Where finished log lines go; each call receives one complete line including its newline.
public struct LogSink: Sendable {
    /// Writes one line.
    public let write: @Sendable ([UInt8]) -> Void

    /// Creates a sink from a writing function.
    public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
    }

    /// File descriptor 2 through write(2): one call per line keeps concurrent lines whole, and it avoids the C
    /// `stderr` global, which Swift 6 rightly treats as shared mutable state.
    public static let standardError = LogSink { line in
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Discards every line.
    public static let discard = LogSink { _ in }
}
