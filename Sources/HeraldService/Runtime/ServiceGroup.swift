/// Background parts started in order and stopped in reverse, each stop waited for before the next, so a part
/// never outlives one it depends on. A part that fails to start stops the ones started before it.
final class ServiceGroup: BackgroundService {
    private enum Phase {
        case idle
        case running(started: [any BackgroundService])
        case stopped
    }

    let name: String
    private let services: [any BackgroundService]
    private let phase = LockedValue(Phase.idle)

    /// A group of `services`, started in the order given.
    init(name: String, _ services: [any BackgroundService]) {
        self.name = name
        self.services = services
    }

    /// Starts each part in order. When one throws, stops those already started, last first, and rethrows; the
    /// group is then stopped. Once stopped, it starts nothing.
    func start() throws {
        let starts = phase.withLock { phase -> Bool in
            switch phase {
            case .idle:
                phase = .running(started: [])
                return true
            case .running: preconditionFailure("\(name) started twice")
            case .stopped: return false
            }
        }
        guard starts else { return }
        var started: [any BackgroundService] = []
        for service in services {
            do {
                try service.start()
            } catch {
                phase.withLock { $0 = .stopped }
                Self.stop(started)
                throw error
            }
            started.append(service)
        }
        phase.withLock { $0 = .running(started: started) }
    }

    /// Stops the started parts, last first, each waited for. Safe to call more than once, and before `start`.
    func stop() {
        let started = phase.withLock { phase -> [any BackgroundService] in
            defer { phase = .stopped }
            guard case .running(let started) = phase else { return [] }
            return started
        }
        Self.stop(started)
    }

    private static func stop(_ started: [any BackgroundService]) {
        for service in started.reversed() { service.stop() }
    }
}
