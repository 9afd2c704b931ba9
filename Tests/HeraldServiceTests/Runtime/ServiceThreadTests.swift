import Dispatch
import Foundation
import Testing

@testable import HeraldService

/// The threads background parts loop on: stopping wakes the loop and waits for it to return, also when asked twice
/// or before the start, and the wake-up counts a notification that arrives while the loop is busy.
@Suite("Service threads")
struct ServiceThreadTests {
    /// Far longer than any wait below: a loop that comes round within a wait was woken, not timed out.
    static let longSleep: Duration = .seconds(600)

    struct Failed: Error {}

    @Test func stopWakesTheLoopAndWaitsUntilItHasReturned() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let leaving = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ended = LockedValue(false)
        thread.start {
            while thread.isRunning { thread.pause(Self.longSleep) }
            leaving.signal()
            // Holds the loop's return back until the test has seen `stop` still waiting for it. The bound only keeps a
            // failed test from hanging: it is far past any wait of the test, however loaded the machine.
            _ = release.wait(timeout: .now() + 600)
            ended.withLock { $0 = true }
        }
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            thread.stop()
            stopped.signal()
        }.start()
        #expect(await signalled(leaving), "stop did not wake the pause")
        #expect(await !signalled(stopped, within: 0.2), "stop returned while the loop was still running")
        release.signal()
        #expect(await signalled(stopped), "stop did not return once the loop had")
        #expect(ended.withLock { $0 })
    }

    @Test func stopTwiceReturnsBothTimes() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let rounds = LockedValue(0)
        let running = DispatchSemaphore(value: 0)
        thread.start {
            while thread.isRunning {
                rounds.withLock { $0 += 1 }
                running.signal()
                thread.pause(Self.longSleep)
            }
        }
        #expect(await signalled(running))
        #expect(
            await offCooperativePool { () -> Bool in
                thread.stop()
                thread.stop()
                return !thread.isRunning
            })
        #expect(rounds.withLock { $0 } == 1)
    }

    @Test func stopBeforeStartReturnsAndTheStartRunsNothing() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let ran = LockedValue(false)
        await offCooperativePool { thread.stop() }
        thread.start { ran.withLock { $0 = true } }
        // Had the start run the body, this stop would wait for it.
        await offCooperativePool { thread.stop() }
        #expect(!ran.withLock { $0 })
    }

    @Test func aNotificationWakesTheLoopBeforeItsTimeout() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let rounds = DispatchSemaphore(value: 0)
        thread.start {
            while thread.isRunning {
                let seen = thread.generation
                rounds.signal()
                thread.wait(since: seen, timeout: Self.longSleep)
            }
        }
        #expect(await signalled(rounds))
        thread.notify()
        #expect(await signalled(rounds), "the notification did not wake the loop")
        thread.notifyOne()
        #expect(await signalled(rounds), "notifyOne did not wake the only thread")
        await offCooperativePool { thread.stop() }
    }

    @Test func aNotificationWhileTheLoopIsBusyWakesItOnceItWaits() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let busy = DispatchSemaphore(value: 0)
        let workDone = DispatchSemaphore(value: 0)
        let rounds = LockedValue(0)
        thread.start {
            while thread.isRunning {
                let seen = thread.generation
                rounds.withLock { $0 += 1 }
                busy.signal()
                _ = workDone.wait(timeout: .now() + 20)
                thread.wait(since: seen, timeout: Self.longSleep)
            }
        }
        #expect(await signalled(busy))
        // Arrives before the loop waits: the generation it read before its work has moved, so it goes round again.
        thread.notify()
        workDone.signal()
        #expect(await signalled(busy), "a notification that arrived during the work was lost")
        #expect(rounds.withLock { $0 } == 2)
        workDone.signal()
        await offCooperativePool { thread.stop() }
    }

    @Test func severalThreadsEachRunTheBodyAndShareTheWakeUp() async {
        let names = ["herald-test-1", "herald-test-2", "herald-test-3"]
        let thread = ServiceThread(threadNames: names)
        let indices = LockedValue<[Int]>([])
        let rounds = DispatchSemaphore(value: 0)
        thread.start { index in
            indices.withLock { $0.append(index) }
            while thread.isRunning {
                let generation = thread.generation
                rounds.signal()
                thread.wait(since: generation, timeout: Self.longSleep)
            }
        }
        for _ in names { #expect(await signalled(rounds)) }
        #expect(indices.withLock { $0 }.sorted() == [0, 1, 2])
        thread.notify()
        for _ in names { #expect(await signalled(rounds), "notify did not wake every thread") }
        await offCooperativePool { thread.stop() }
    }

    /// Whether `waitForWork` returned before `timeout`, that is, was woken.
    static func wokeForWork(_ thread: ServiceThread, within timeout: Duration) async -> Bool {
        await offCooperativePool { () -> Bool in
            let start = ContinuousClock.now
            thread.waitForWork(timeout: timeout)
            return ContinuousClock.now - start < timeout
        }
    }

    @Test func aNotificationThatAClaimStartedSinceCoversWakesNoOtherWorker() async {
        let thread = ServiceThread(threadNames: ["herald-test-1", "herald-test-2"])
        // Worker A claims; a notification arrives while it decides; worker B, woken by it, claims. When A is done,
        // B's claim has seen what was notified: A sleeps instead of making a claim that finds nothing.
        thread.beginClaim()
        thread.notifyOne()
        thread.beginClaim()
        #expect(await !Self.wokeForWork(thread, within: .milliseconds(300)), "a covered notification woke a worker")
        // A notification after the last claim started wakes at once.
        thread.notifyOne()
        #expect(await Self.wokeForWork(thread, within: .seconds(60)), "an uncovered notification was lost")
        await offCooperativePool { thread.stop() }
    }

    @Test func aNotificationDuringTheOnlyClaimWakesItsWorkerOnceItWaits() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let rounds = DispatchSemaphore(value: 0)
        let workDone = DispatchSemaphore(value: 0)
        thread.start {
            while thread.isRunning {
                thread.beginClaim()
                rounds.signal()
                _ = workDone.wait(timeout: .now() + 20)
                thread.waitForWork(timeout: Self.longSleep)
            }
        }
        #expect(await signalled(rounds))
        thread.notifyOne()
        workDone.signal()
        #expect(await signalled(rounds), "a notification that arrived during the claim was lost")
        workDone.signal()
        await offCooperativePool { thread.stop() }
    }

    @Test func aRecruitWakesOneWorkerEvenAfterALaterClaim() async {
        let thread = ServiceThread(threadNames: ["herald-test-1", "herald-test-2"])
        // A full batch recruits, then its worker claims again at once: the recruit still stands, since that claim
        // may be full too. It is taken once.
        thread.recruit()
        thread.beginClaim()
        #expect(await Self.wokeForWork(thread, within: .seconds(60)), "the recruit was lost")
        #expect(await !Self.wokeForWork(thread, within: .milliseconds(300)), "one recruit woke two workers")
        await offCooperativePool { thread.stop() }
    }

    @Test func aPauseIgnoresNotificationsButNotTheStop() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let pausing = DispatchSemaphore(value: 0)
        let resumed = DispatchSemaphore(value: 0)
        thread.start {
            pausing.signal()
            thread.pause(Self.longSleep)
            resumed.signal()
        }
        #expect(await signalled(pausing))
        thread.notify()
        #expect(await !signalled(resumed, within: 0.2), "a notification ended the pause")
        await offCooperativePool { thread.stop() }
        #expect(await signalled(resumed, within: 0))
    }

    @Test func aRepeatedStepThatThrowsIsRecoveredAndTriedAgain() async {
        let thread = ServiceThread(name: "herald-test-loop")
        let steps = LockedValue(0)
        let recovered = LockedValue<[String]>([])
        let succeeded = DispatchSemaphore(value: 0)
        thread.startRepeating {
            let step = steps.withLock { steps in
                steps += 1
                return steps
            }
            if step == 1 { throw Failed() }
            succeeded.signal()
            return Self.longSleep
        } recover: { error in
            recovered.withLock { $0.append(String(describing: error)) }
            return .zero
        }
        #expect(await signalled(succeeded), "the step was not tried again after it threw")
        // The pause after the step that succeeded lasts until the stop.
        await offCooperativePool { thread.stop() }
        #expect(steps.withLock { $0 } == 2)
        #expect(recovered.withLock { $0 } == [String(describing: Failed())])
    }
}

/// Waits off the cooperative pool until `semaphore` is signalled; false when `seconds` passed first.
func signalled(_ semaphore: DispatchSemaphore, within seconds: Double = 120) async -> Bool {
    await offCooperativePool { semaphore.wait(timeout: .now() + seconds) == .success }
}
