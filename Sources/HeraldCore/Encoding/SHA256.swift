import CSHA256
import Foundation

/// SHA-256 (FIPS 180-4), the one hash of every part: stable identifiers from long keys, API key hashes and request
/// body hashes. It lives in the core, which imports no crypto library: the rounds are plain Swift, or the
/// processor's own SHA-256 instructions where it has them (`CSHA256`), which take less than half the time for the
/// one-block keys of the identifiers derived for every delivery.
public enum SHA256 {
    /// Whether this processor runs the rounds in hardware; asked once.
    static let hardwareAvailable = herald_sha256_hardware_available() != 0

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
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(of: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { digest(of: $0) }
    }

    /// The digest of a string's UTF-8 bytes, as lowercase hex.
    public static func hex(_ text: String) -> String {
        var text = text
        return Hex.encode(text.withUTF8 { digest(of: UnsafeRawBufferPointer($0)) })
    }

    /// The first `byteCount` bytes of the digest of `bytes`, as lowercase hex: identifiers derived from keys.
    public static func hexPrefix(_ bytes: [UInt8], byteCount: Int) -> String {
        let hash = bytes.withUnsafeBytes { digest(of: $0) }
        return Hex.encode(hash.prefix(max(0, min(byteCount, hash.count))))
    }

    /// Hashes without a heap allocation besides the result: identifiers are hashed several times per delivery,
    /// so the state, the message schedule and the padded tail live in one stack scratch area. `hardware` picks
    /// the processor's instructions or the Swift rounds (the tests run both).
    static func digest(of message: UnsafeRawBufferPointer, hardware: Bool = hardwareAvailable) -> [UInt8] {
        roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 + 64 + 32) { scratch in
                let base = scratch.baseAddress!
                let state = base
                let schedule = base + 8
                for index in 0..<8 { state[index] = initialState[index] }
                let fullBlocks = message.count / 64
                if fullBlocks > 0 {
                    compress(
                        message.baseAddress!, blocks: fullBlocks, state: state, schedule: schedule, constants,
                        hardware: hardware)
                }
                // The tail: the remaining bytes, 0x80, zeros, and the bit length, in one or two blocks.
                let tail = UnsafeMutableRawPointer(base + 8 + 64)
                tail.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
                let remaining = message.count - fullBlocks * 64
                if remaining > 0 {
                    tail.copyMemory(from: message.baseAddress! + fullBlocks * 64, byteCount: remaining)
                }
                tail.storeBytes(of: 0x80, toByteOffset: remaining, as: UInt8.self)
                let tailLength = remaining < 56 ? 64 : 128
                let bitLength = UInt64(message.count) &* 8
                for index in 0..<8 {
                    let byte = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(index)))
                    tail.storeBytes(of: byte, toByteOffset: tailLength - 8 + index, as: UInt8.self)
                }
                compress(
                    UnsafeRawPointer(tail), blocks: tailLength / 64, state: state, schedule: schedule, constants,
                    hardware: hardware)
                return [UInt8](unsafeUninitializedCapacity: 32) { out, count in
                    for index in 0..<32 {
                        out[index] = UInt8(truncatingIfNeeded: state[index / 4] >> (24 - 8 * UInt32(index % 4)))
                    }
                    count = 32
                }
            }
        }
    }

    /// `blocks` consecutive 64-byte blocks into `state`.
    @inline(__always)
    private static func compress(
        _ start: UnsafeRawPointer, blocks: Int, state: UnsafeMutablePointer<UInt32>,
        schedule: UnsafeMutablePointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>, hardware: Bool
    ) {
        if hardware {
            herald_sha256_hardware_blocks(state, start, blocks, k.baseAddress!)
            return
        }
        for block in 0..<blocks { compress(start + block * 64, state: state, schedule: schedule, k) }
    }

    /// One 64-byte block into `state`.
    @inline(__always)
    private static func compress(
        _ block: UnsafeRawPointer, state: UnsafeMutablePointer<UInt32>, schedule w: UnsafeMutablePointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        // Eight rounds per pass, the working variables renamed instead of shifted.
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            i += 8
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    /// One round: `d` gains T1, `h` becomes T1 + T2; the caller renames the variables for the next.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constantAndWord
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

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
