import Foundation
import HeraldText

/// Makes ICU answer from the OS tz database before anything touches a time zone.
enum TimeZoneSetup {
    /// Builds the ICU zone data for the OS tz release if needed, re-executes the process with
    /// `ICU_TIMEZONE_FILES_DIR` set when it is not, and returns what ICU then runs on.
    static func activate(_ config: ServiceConfig) throws -> TimeZoneDataStatus {
        let dataDir = URL(fileURLWithPath: config.dataDirectory).standardizedFileURL
        let folder = try TimeZoneData.prepare(dataDir: dataDir)
        try TimeZoneData.activate(folder: folder)
        return TimeZoneData.status()
    }
}
