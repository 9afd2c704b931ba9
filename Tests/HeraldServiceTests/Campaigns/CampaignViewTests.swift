import Testing

@testable import HeraldService

@Suite("A campaign's view")
struct CampaignViewTests {
    @Test func aCampaignIsSettledOnceCanceledOrCompletedWithWhatItHandedOutDecided() {
        #expect(!CampaignView.settled(status: "scheduled", decided: 0, enqueued: 0))
        #expect(!CampaignView.settled(status: "running", decided: 5, enqueued: 5))
        // Every wave handed out, its last recipients still in the pipeline.
        #expect(!CampaignView.settled(status: "completed", decided: 2, enqueued: 3))
        #expect(CampaignView.settled(status: "completed", decided: 3, enqueued: 3))
        // Planned more than it handed out: it waits only for what it handed out.
        #expect(CampaignView.settled(status: "completed", decided: 2, enqueued: 2))
        #expect(CampaignView.settled(status: "canceled", decided: 0, enqueued: 4))
    }
}
