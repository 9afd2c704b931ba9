internal import CLibPQ

/// A non-error message from the server (NOTICE, WARNING, …), delivered to `PostgresConnection.noticeHandler`.
public struct PostgresNotice: Sendable {
    /// `NOTICE`, `WARNING`, `INFO`, … (not localized).
    public let severity: String
    /// The SQLSTATE of the notice, e.g. `42P07` for "already exists, skipping".
    public let sqlState: String
    /// The server's primary message.
    public let message: String
}

extension PostgresConnection {
    /// Routes notices to `noticeHandler`; libpq's default would print them to the process's stderr.
    func installNoticeReceiver() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The connection outlives its PGconn (PQfinish runs in deinit), so the unretained pointer stays valid.
        PQsetNoticeReceiver(
            handle,
            { context, result in
                guard let context, let result else { return }
                let connection = Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue()
                connection.receiveNotice(result)
            }, context)
    }

    private func receiveNotice(_ result: OpaquePointer) {
        guard let noticeHandler else { return }
        func field(_ code: Character) -> String {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) } ?? ""
        }
        noticeHandler(PostgresNotice(severity: field("V"), sqlState: field("C"), message: field("M")))
    }
}
