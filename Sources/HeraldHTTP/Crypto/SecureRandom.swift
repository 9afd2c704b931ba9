internal import CCrypto

/// Cryptographically strong random bytes from OpenSSL's `RAND_bytes`.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        // RAND_bytes fails only when the generator cannot be seeded; issuing guessable keys would be worse than
        // stopping.
        precondition(ok == 1, "OpenSSL RAND_bytes failed")
        return bytes
    }
}
