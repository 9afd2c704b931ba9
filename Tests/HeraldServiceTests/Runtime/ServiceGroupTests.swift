import Dispatch
import Foundation
import Testing

@testable import HeraldService

/// The background parts of `herald serve` as a group: started in order, stopped in reverse with each stop waited
/// for, a failed start undone, and a stop that is safe to repeat.
@Suite("Service groups")
struct ServiceGroupTests {
    struct Failed: Error, Equatable {
        let part: String
    }

    /// A part that writes what happens to it into a shared log.
    final class Part: BackgroundService {
        let name: String
        private let log: LockedValue<[String]>
        private let fails: Bool

        init(_ name: String, log: LockedValue<[String]>, fails: Bool = false) {
            self.name = name
            self.log = log
            self.fails = fails
        }

        func start() throws {
            guard !fails else {
                log.withLock { $0.append("fail \(name)") }
                throw Failed(part: name)
            }
            log.withLock { $0.append("start \(name)") }
        }

        func stop() { log.withLock { $0.append("stop \(name)") } }
    }

    /// A part with a loop on a thread of its own, which logs when the loop has returned.
    struct LoopPart: BackgroundService {
        let name: String
        let log: LockedValue<[String]>
        let running: DispatchSemaphore
        private let thread = ServiceThread(name: "herald-test-part")

        func start() {
            log.withLock { $0.append("start \(name)") }
            thread.start {
                running.signal()
                while thread.isRunning { thread.pause(.seconds(600)) }
                log.withLock { $0.append("ended \(name)") }
            }
        }

        func stop() {
            thread.stop()
            log.withLock { $0.append("stop \(name)") }
        }
    }

    @Test func partsStartInOrderAndStopInReverse() {
        let log = LockedValue<[String]>([])
        let group = ServiceGroup(name: "test", ["a", "b", "c"].map { Part($0, log: log) })
        #expect(throws: Never.self) { try group.start() }
        group.stop()
        #expect(log.withLock { $0 } == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
    }

    @Test func aPartThatFailsToStartStopsThoseStartedBeforeItAndTheErrorGoesOn() {
        let log = LockedValue<[String]>([])
        let group = ServiceGroup(
            name: "test",
            [Part("a", log: log), Part("b", log: log), Part("c", log: log, fails: true), Part("d", log: log)])
        #expect(throws: Failed(part: "c")) { try group.start() }
        #expect(log.withLock { $0 } == ["start a", "start b", "fail c", "stop b", "stop a"])
        // Already stopped: stopping again stops nothing twice.
        group.stop()
        #expect(log.withLock { $0 }.count == 5)
    }

    @Test func aSecondStopStopsNothingAgain() {
        let log = LockedValue<[String]>([])
        let group = ServiceGroup(name: "test", ["a", "b"].map { Part($0, log: log) })
        #expect(throws: Never.self) { try group.start() }
        group.stop()
        group.stop()
        #expect(log.withLock { $0 } == ["start a", "start b", "stop b", "stop a"])
    }

    @Test func aStopBeforeTheStartStopsNothingAndNothingStartsAfterIt() {
        let log = LockedValue<[String]>([])
        let group = ServiceGroup(name: "test", ["a", "b"].map { Part($0, log: log) })
        group.stop()
        #expect(throws: Never.self) { try group.start() }
        group.stop()
        #expect(log.withLock { $0 }.isEmpty)
    }

    @Test func eachPartHasStoppedBeforeTheOneStartedBeforeItIsStopped() async {
        let log = LockedValue<[String]>([])
        let running = DispatchSemaphore(value: 0)
        let group = ServiceGroup(
            name: "test", ["a", "b"].map { LoopPart(name: $0, log: log, running: running) })
        #expect(throws: Never.self) { try group.start() }
        #expect(await signalled(running))
        #expect(await signalled(running))
        await offCooperativePool { group.stop() }
        #expect(log.withLock { $0 } == ["start a", "start b", "ended b", "stop b", "ended a", "stop a"])
    }

    @Test func groupsNestAndAFailureInsideStopsTheOuterPartsToo() {
        let log = LockedValue<[String]>([])
        let inner = ServiceGroup(name: "inner", [Part("b", log: log), Part("c", log: log, fails: true)])
        let outer = ServiceGroup(name: "outer", [Part("a", log: log), inner, Part("d", log: log)])
        #expect(throws: Failed(part: "c")) { try outer.start() }
        #expect(log.withLock { $0 } == ["start a", "start b", "fail c", "stop b", "stop a"])
    }
}
