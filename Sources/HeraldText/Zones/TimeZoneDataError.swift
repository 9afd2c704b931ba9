/// A failure while building, loading or checking Herald's ICU time zone data.
public struct TimeZoneDataError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it was.
    public enum Code: String, Sendable {
        /// A tz source file (TZif, tzdata.zi, zone.tab) is missing or malformed.
        case badSource = "tzdata.bad_source"
        /// `genrb` is missing or failed.
        case compilerFailed = "tzdata.genrb_failed"
        /// The output folder could not be written.
        case outputFailed = "tzdata.output_failed"
        /// A zone id is not known to the loaded tz data.
        case unknownZone = "tzdata.unknown_zone"
        /// ICU reported an error.
        case icuFailed = "tzdata.icu_failed"
        /// Re-executing the process with the tz data folder set failed.
        case reexecFailed = "tzdata.reexec_failed"
    }

    /// The kind of failure.
    public let code: Code
    /// A short, data-free explanation (file names and zone ids at most).
    public let message: String

    /// A failure of kind `code`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "code: message".
    public var description: String { "\(code.rawValue): \(message)" }
}
