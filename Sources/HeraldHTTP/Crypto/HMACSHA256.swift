internal import CCrypto

/// HMAC-SHA256 (RFC 2104) through OpenSSL, for signed tokens.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(
        for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // OpenSSL wants a valid key pointer even for an empty key, so an empty key is passed as one byte of length 0.
        let keyLength = key.count
        let keyBytes = keyLength == 0 ? [0] : Array(key)
        let messageBytes = Array(message)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBytes { messageBuffer in
                HMAC(
                    EVP_sha256(), keyBuffer.baseAddress, Int32(keyLength),
                    messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count,
                    &code, &length)
            }
        }
        precondition(result != nil, "OpenSSL HMAC-SHA256 failed")
        return Array(code.prefix(Int(length)))
    }

    /// Whether `code` is the authentication code of `message` under `key`, compared in constant time.
    public static func isValid(
        _ code: some Collection<UInt8>, for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) -> Bool {
        ConstantTime.equals(Array(code), authenticationCode(for: message, key: key))
    }
}
