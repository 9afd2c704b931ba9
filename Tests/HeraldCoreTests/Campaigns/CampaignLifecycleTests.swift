import Testing

@testable import HeraldCore

@Suite("A campaign's life")
struct CampaignLifecycleTests {
    @Test("A cursor walks the zones in order, then the users without a zone, a short page ending each segment")
    func cursor() {
        var cursor = WaveCursor(zones: ["Asia/Tokyo", "UTC"], sendsZoneless: true, segment: 0, after: "")
        #expect(cursor.segments == 3)
        #expect(cursor.zone == "Asia/Tokyo")
        cursor.advance(past: ["u1", "u2"], limit: 2)
        #expect(cursor.zone == "Asia/Tokyo")
        #expect(cursor.after == "u2")
        cursor.advance(past: ["u3"], limit: 2)
        #expect(cursor.zone == "UTC")
        #expect(cursor.after == "")
        #expect(cursor.stateAfterBatch == .running)
        cursor.advance(past: [], limit: 5)
        #expect(cursor.zone == nil)
        #expect(!cursor.isFinished)
        cursor.advance(past: ["u9"], limit: 5)
        #expect(cursor.isFinished)
        #expect(cursor.stateAfterBatch == .done)
        #expect(WaveCursor(zones: ["UTC"], sendsZoneless: false, segment: 1, after: "").isFinished)
    }

    @Test("Only pending and running waves have recipients left")
    func openStates() {
        #expect(WaveState.allCases.filter(\.isOpen) == [.pending, .running])
    }

    @Test("A campaign is scheduled, running, completed or canceled by its waves")
    func status() {
        #expect(CampaignStatus.of(canceled: false, waves: [.pending, .pending]) == .scheduled)
        #expect(CampaignStatus.of(canceled: false, waves: [.done, .pending]) == .running)
        #expect(CampaignStatus.of(canceled: false, waves: [.skipped, .running]) == .running)
        #expect(CampaignStatus.of(canceled: false, waves: [.skipped, .done]) == .completed)
        #expect(CampaignStatus.of(canceled: true, waves: [.done]) == .canceled)
    }

    @Test("A campaign is settled once canceled, or completed with what it handed out decided")
    func settled() {
        #expect(!CampaignStatus.scheduled.isSettled(decided: 0, enqueued: 0))
        #expect(!CampaignStatus.running.isSettled(decided: 5, enqueued: 5))
        // Every wave handed out, its last recipients still in the pipeline.
        #expect(!CampaignStatus.completed.isSettled(decided: 2, enqueued: 3))
        #expect(CampaignStatus.completed.isSettled(decided: 3, enqueued: 3))
        #expect(CampaignStatus.canceled.isSettled(decided: 0, enqueued: 4))
    }

    @Test("Only a campaign with waves left to stop takes a cancel; only a category of notifications takes a campaign")
    func cancelAndCategory() {
        #expect(CampaignStatus.allCases.filter(\.takesCancel) == [.scheduled, .running])
        #expect(Category.Kind.allCases.filter(\.takesCampaigns) == [.notification])
    }
}
