internal import CLibPQ
import Glibc

extension PostgresConnection {
    /// Sends all statements in one round trip (libpq pipeline mode) and returns one result per statement.
    ///
    /// Statements up to the end of the batch form one implicit transaction unless the batch has its own
    /// `BEGIN`/`COMMIT`. The first failing statement aborts the rest of the batch, whose effects are rolled back;
    /// it is thrown with its `statementIndex`.
    public func pipeline(_ statements: [BoundQuery]) throws -> [PostgresResult] {
        guard !statements.isEmpty else { return [] }
        let values = try statements.map { try PostgresParameters($0.parameters) }
        // Named statements are prepared before the batch (once per session), so the batch itself only executes.
        let names = try zip(statements, values).map { try preparedName(for: $0.query, parameterCount: $1.count) }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        // Non-blocking writes: a large batch in blocking mode can deadlock once both socket buffers are full.
        PQsetnonblocking(handle, 1)
        let outcome = Result { () throws(PostgresError) -> [PostgresResult] in
            for index in statements.indices {
                let sent = values[index].withPointers { pointers in
                    let count = Int32(values[index].count)
                    if let name = names[index] {
                        return PQsendQueryPrepared(handle, name, count, pointers, nil, nil, 0)
                    }
                    return PQsendQueryParams(handle, statements[index].query.sql, count, nil, pointers, nil, nil, 0)
                }
                // Not flushed here: in pipeline mode libpq sends once its buffer holds 64 kB, and the sync below
                // sends the rest, so a small batch leaves in one write and the server reads it in one.
                guard sent == 1 else { throw connectionError() }
            }
            guard PQpipelineSync(handle) == 1 else { throw connectionError() }
            return try collectPipelineResults(count: statements.count)
        }
        PQsetnonblocking(handle, 0)
        PQexitPipelineMode(handle)
        if case .failure = outcome {
            // A failed explicit BEGIN block stays open and aborted after the sync; leave the session clean.
            rollbackIfNeeded()
        }
        return try outcome.get()
    }

    /// Reads results up to the pipeline's sync point, keeping the output flowing meanwhile.
    private func collectPipelineResults(count: Int) throws(PostgresError) -> [PostgresResult] {
        var results: [PostgresResult] = []
        results.reserveCapacity(count)
        var firstError: PostgresError?
        var reader = PipelineResultReader()
        reading: while true {
            try pumpOutput(waitUntilFlushed: false)
            while PQisBusy(handle) == 1 {
                let flushed = PQflush(handle)
                guard flushed >= 0 else { throw connectionError() }
                try waitForSocket(writable: flushed == 1)
                guard PQconsumeInput(handle) == 1 else { throw connectionError() }
            }
            guard let result = PQgetResult(handle) else {
                if reader.noResult(connectionOK: PQstatus(handle) == CONNECTION_OK) == .connectionLost {
                    throw connectionError()
                }
                continue
            }
            // A statement's rows own their libpq result; every other result is freed here.
            var adopted = false
            defer { if !adopted { PQclear(result) } }
            let status = PQresultStatus(result)
            switch reader.result(isSync: status == PGRES_PIPELINE_SYNC) {
            case .finished: break reading
            case .record(let index):
                if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
                    results.append(PostgresResult(adopting: result))
                    adopted = true
                } else {
                    if status != PGRES_PIPELINE_ABORTED {
                        firstError = firstError ?? error(from: result).at(statement: index)
                    }
                    results.append(PostgresResult(columns: [], cells: [], affectedRows: 0))
                }
            case .skip, .next, .connectionLost: continue
            }
        }
        if let firstError { throw firstError }
        return results
    }

    /// Flushes what the socket takes now; reads input too, so the server never blocks on a full send buffer.
    func pumpOutput(waitUntilFlushed: Bool) throws(PostgresError) {
        while true {
            switch PQflush(handle) {
            case 0: return
            case 1:
                guard waitUntilFlushed else { return }
                try waitForSocket(writable: true)
                guard PQconsumeInput(handle) == 1 else { throw connectionError() }
            default: throw connectionError()
            }
        }
    }

    /// Blocks until the socket is readable (or writable, when asked).
    func waitForSocket(writable: Bool, timeoutMilliseconds: Int32 = -1) throws(PostgresError) {
        // libpq closes the socket when it finds the connection lost; poll would ignore -1 and wait for ever.
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw connectionError() }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        if writable { descriptor.events |= Int16(POLLOUT) }
        while poll(&descriptor, 1, timeoutMilliseconds) < 0 {
            guard errno == EINTR else { throw connectionError() }
        }
    }
}
