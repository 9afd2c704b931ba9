internal import CMalloc

/// Gives the heap's free pages back to the system once a minute.
///
/// glibc keeps the memory a process frees for its own next allocations, and returns only what lies at the very top
/// of its heaps. After a burst (a bulk import, a campaign over a million users) the freed pages in between stay
/// resident for the life of the process: a server that decided a million-user campaign held 207 MB, of which
/// `malloc_trim` gave back 118. Trimming once a minute keeps the resident size near what the process uses.
struct MemoryTrimmer: BackgroundService {
    let name = "memory trimmer"
    /// The pause between two trims.
    let interval: Duration
    /// What a trim does; the heap's own in production, a probe in tests.
    private let trim: @Sendable () -> Void
    private let loop = ServiceThread(name: "herald-memory-trim")

    init(interval: Duration = .seconds(60), trim: @escaping @Sendable () -> Void = MemoryTrimmer.trimHeap) {
        self.interval = interval
        self.trim = trim
    }

    /// Returns the free pages of every heap to the system (they stay the process's address space, and come back
    /// zeroed on the next touch).
    static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// Trims after every `interval`, the first one `interval` after the start (a process that has just started has
    /// nothing to give back).
    func start() {
        loop.startRepeating(
            after: interval,
            { [trim, interval] in
                trim()
                return interval
            },
            recover: { [interval] _ in interval })
    }

    func stop() { loop.stop() }
}
