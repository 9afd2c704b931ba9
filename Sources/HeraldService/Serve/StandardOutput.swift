#if canImport(Glibc)
    import Glibc
#endif

/// Writes operator-facing text to stdout with write(2), avoiding the C `stdout` global.
enum StandardOutput {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Writes operator-facing errors to stderr with write(2).
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { buffer in Glibc.write(2, buffer.baseAddress, buffer.count) }
    }
}
