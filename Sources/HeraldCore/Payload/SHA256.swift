import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift: short stable identifiers from long keys need a hash, and the core imports
/// no crypto library.
public enum SHA256 {
    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = firstPrimes(64).map {
        fractionBits(Double($0), root: 3)
    }
    /// The initial state: the same for the square roots of the first 8 primes.
    private static let initialState: [UInt32] = firstPrimes(8).map {
        fractionBits(Double($0), root: 2)
    }

    /// The 32-byte digest of `bytes`.
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8]
    where Bytes.Element == UInt8 {
        var message: [UInt8] = []
        message.reserveCapacity(bytes.count + 72)
        message.append(contentsOf: bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        var state = initialState
        let k = roundConstants
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] =
                    UInt32(message[b]) << 24 | UInt32(message[b + 1]) << 16 | UInt32(message[b + 2]) << 8
                    | UInt32(message[b + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, value) in [a, b, c, d, e, f, g, h].enumerated() { state[i] = state[i] &+ value }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
        }
    }

    /// The digest of a string's UTF-8 bytes, as lowercase hex.
    public static func hex(_ text: String) -> String {
        hexString(hash(Array(text.utf8)))
    }

    /// Lowercase hex of `bytes`.
    public static func hexString(_ bytes: [UInt8]) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            digits.append(hexAlphabet[Int(byte >> 4)])
            digits.append(hexAlphabet[Int(byte & 0x0F)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static let hexAlphabet = Array("0123456789abcdef".utf8)

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    private static func firstPrimes(_ count: Int) -> [Int] {
        var primes: [Int] = []
        var candidate = 2
        while primes.count < count {
            if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
            candidate += 1
        }
        return primes
    }

    /// The first 32 fractional bits of the `root`-th root of `x`, corrected by exact integer arithmetic so
    /// floating-point rounding can never change a constant.
    private static func fractionBits(_ x: Double, root: Int) -> UInt32 {
        // r = floor(x^(1/root) * 2^32) is the unique integer with r^root <= x * 2^(32*root) < (r+1)^root.
        let target = UInt64(x)
        var estimate = UInt64((root == 2 ? x.squareRoot() : cbrt(x)) * 4_294_967_296)
        func fits(_ r: UInt64) -> Bool { powerFits(r, root: root, target: target) }
        while !fits(estimate) { estimate -= 1 }
        while fits(estimate + 1) { estimate += 1 }
        return UInt32(truncatingIfNeeded: estimate)
    }

    /// Whether r^root <= target * 2^(32*root), in 128-bit arithmetic built from two 64-bit halves.
    private static func powerFits(_ r: UInt64, root: Int, target: UInt64) -> Bool {
        // Compare (r / 2^32)^root with target using r = hi*2^32 + lo, exact via decimal-free big multiplication.
        var power: [UInt32] = [UInt32(truncatingIfNeeded: r), UInt32(truncatingIfNeeded: r >> 32)]
        for _ in 1..<root {
            power = multiply(power, [UInt32(truncatingIfNeeded: r), UInt32(truncatingIfNeeded: r >> 32)])
        }
        var bound: [UInt32] = Array(repeating: 0, count: root)
        bound.append(UInt32(truncatingIfNeeded: target))
        bound.append(UInt32(truncatingIfNeeded: target >> 32))
        return compare(power, bound) <= 0
    }

    private static func multiply(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            for j in 0..<b.count {
                let sum = UInt64(a[i]) * UInt64(b[j]) + UInt64(result[i + j]) + carry
                result[i + j] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            result[i + b.count] = UInt32(truncatingIfNeeded: carry)
        }
        return result
    }

    private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        let length = max(a.count, b.count)
        for i in stride(from: length - 1, through: 0, by: -1) {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }
}
