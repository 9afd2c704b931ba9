import Foundation

extension Date {
    /// The instant in whole microseconds since 1970, rounded to the nearest: the precision timestamps are stored
    /// with, so an instant and the same instant read back from storage compare equal by it.
    public var wholeMicrosecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1_000_000).rounded()) }

    /// The instant rounded to whole microseconds: what storage keeps of it, whichever form it is stored in.
    public var inWholeMicroseconds: Date {
        Date(timeIntervalSince1970: Double(wholeMicrosecondsSince1970) / 1_000_000)
    }
}
