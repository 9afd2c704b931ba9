import Glibc

/// `herald tzdata …`: builds and checks the ICU time zone data compiled from the OS tz database.
public enum TimeZoneDataCommand {
    /// Runs the subcommand with its arguments (after `tzdata`) and returns the process exit status.
    public static func run(arguments: [String]) -> Int32 {
        FileStandardError.write("herald tzdata: not available in this build\n")
        return 2
    }
}

/// Minimal stderr writer that does not touch C globals.
enum FileStandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { buffer in
            Glibc.write(2, buffer.baseAddress, buffer.count)
        }
    }
}
