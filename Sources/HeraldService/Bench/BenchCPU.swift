import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time (user + system, from `/proc/<pid>/stat`) of the herald process and of the benchmark's own PostgreSQL
/// server: its postmaster and every process whose parent it is. Read at the start and the end of a phase, the
/// difference divided by the phase's events is the CPU each event cost.
///
/// A backend that ends inside a phase leaves the list of children, but the postmaster reaps it and the kernel adds
/// its time to the postmaster's `cutime`/`cstime`, which are counted too: so the processes that started and ended
/// inside a phase are counted as well. What remains is a small error: a child reaped between the two reads of one
/// sample is counted twice or not at all, and every figure is in clock ticks (10 ms here).
struct BenchCPU: Sendable {
    /// CPU seconds spent so far.
    struct Reading: Sendable {
        var herald: Double
        /// Nil when the database is not the benchmark's own (`DATABASE_URL`).
        var postgres: Double?
    }

    /// The CPU a phase spent, in seconds, and per event in microseconds.
    struct Usage: Sendable {
        var events: Int
        var heraldSeconds: Double
        var postgresSeconds: Double?

        /// Herald's CPU microseconds per event.
        var heraldPerEvent: Double { events > 0 ? heraldSeconds * 1e6 / Double(events) : 0 }
        /// PostgreSQL's CPU microseconds per event, when its processes are known.
        var postgresPerEvent: Double? { postgresSeconds.map { events > 0 ? $0 * 1e6 / Double(events) : 0 } }

        /// Herald's and PostgreSQL's CPU microseconds per event together (herald's alone when PostgreSQL's is
        /// unknown).
        var totalPerEvent: Double { heraldPerEvent + (postgresPerEvent ?? 0) }

        /// The figures for a phase's JSON object.
        var json: [String: Any] {
            var figures: [String: Any] = [
                "cpu_herald_seconds": heraldSeconds, "cpu_herald_us_per_event": heraldPerEvent,
            ]
            if let postgresSeconds, let postgresPerEvent {
                figures["cpu_postgres_seconds"] = postgresSeconds
                figures["cpu_postgres_us_per_event"] = postgresPerEvent
            }
            return figures
        }

        /// The table's CPU column: `herald / PostgreSQL` microseconds per event.
        var text: String {
            BenchTable.format(heraldPerEvent) + " / " + (postgresPerEvent.map { BenchTable.format($0) } ?? "—")
        }
    }

    /// The fields of one `/proc/<pid>/stat` line this needs, in clock ticks.
    struct Stat: Equatable {
        var parent: Int32
        var ownTicks: Int
        var reapedChildrenTicks: Int
    }

    /// The postmaster's process id, when the server is the benchmark's own.
    let postmaster: Int32?
    private static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// The CPU spent so far.
    func read() -> Reading {
        // Herald's own threads only: its children (initdb, pg_ctl, git) run outside the phases.
        let herald = Self.stat(of: "self").map { Double($0.ownTicks) } ?? 0
        return Reading(
            herald: herald / Self.ticksPerSecond, postgres: postgresTicks().map { Double($0) / Self.ticksPerSecond })
    }

    /// The CPU spent since `start`, over `events` events.
    func usage(since start: Reading, events: Int) -> Usage {
        let now = read()
        let postgres = start.postgres.flatMap { before in now.postgres.map { $0 - before } }
        return Usage(events: events, heraldSeconds: now.herald - start.herald, postgresSeconds: postgres)
    }

    private func postgresTicks() -> Int? {
        guard let postmaster, let server = Self.stat(of: String(postmaster)) else { return nil }
        var ticks = server.ownTicks + server.reapedChildrenTicks
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where entry.first?.isNumber == true && entry != String(postmaster) {
            if let child = Self.stat(of: entry), child.parent == postmaster { ticks += child.ownTicks }
        }
        return ticks
    }

    /// The CPU seconds process `process` has spent, or nil when it is gone.
    static func seconds(ofProcess process: Int32) -> Double? {
        stat(of: String(process)).map { Double($0.ownTicks) / ticksPerSecond }
    }

    /// The CPU seconds the calling thread has spent.
    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func stat(of process: String) -> Stat? {
        (try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8)).flatMap(parse)
    }

    /// Parses a `/proc/<pid>/stat` line. The command name in parentheses may hold spaces and parentheses, so the
    /// fields are counted from the last `)`: state, ppid, …, utime (14th field), stime, cutime, cstime.
    static func parse(_ line: String) -> Stat? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 14, let parent = Int32(fields[1]) else { return nil }
        let ticks = fields[11...14].compactMap { Int($0) }
        guard ticks.count == 4 else { return nil }
        return Stat(parent: parent, ownTicks: ticks[0] + ticks[1], reapedChildrenTicks: ticks[2] + ticks[3])
    }
}
