/// Why the embedded PostgreSQL could not be set up, started or stopped.
public struct EmbeddedPostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The step that failed.
    public enum Step: String, Sendable {
        /// No `initdb`/`pg_ctl` found via `pg_config --bindir` or under `/usr/lib/postgresql`.
        case findBinaries = "find the PostgreSQL server binaries"
        /// Creating or handing over the data folder failed.
        case prepareFolder = "prepare the data folder"
        /// `initdb` failed.
        case initialize = "initialize the cluster"
        /// Writing the password file or requiring the password failed.
        case secure = "require the password"
        /// `pg_ctl start` failed; the server log in the folder says why.
        case start = "start the server"
        /// Creating the `herald` database failed.
        case createDatabase = "create the database"
        /// `pg_ctl stop` failed.
        case stop = "stop the server"
    }

    /// The step that failed.
    public let step: Step
    /// Command output or system error text, for logs.
    let detail: String

    init(_ step: Step, _ detail: String) {
        self.step = step
        self.detail = detail
    }

    /// The failed step only.
    public var description: String { "embedded PostgreSQL: could not \(step.rawValue)" }

    /// The step plus command output.
    public var debugDescription: String { description + ": " + detail }
}
