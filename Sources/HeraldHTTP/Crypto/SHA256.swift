internal import CCrypto

/// SHA-256 through OpenSSL's EVP interface.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = Array(bytes).withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest fails only when OpenSSL cannot allocate or load SHA-256, which leaves nothing to recover.
        precondition(ok == 1, "OpenSSL SHA-256 failed")
        return Array(digest.prefix(Int(length)))
    }

    /// The lowercase hex digest of a string's UTF-8 bytes.
    public static func hexDigest(_ text: String) -> String {
        Hex.encode(hash(Array(text.utf8)))
    }
}
