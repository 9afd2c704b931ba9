import Foundation
import Testing

@testable import HeraldService

@Suite("Campaign progress line")
struct CampaignProgressTests {
    @Test func theBarShowsShareRateAndETA() {
        var progress = CampaignProgress(planned: 10_000)
        let start = Date(timeIntervalSince1970: 0)
        progress.observed(decided: 1_000, at: start)
        progress.observed(decided: 3_000, at: start + 2)
        #expect(progress.rate == 1_000)
        #expect(progress.eta(decided: 3_000) == 7)
        #expect(
            progress.bar(decided: 3_000, status: "running")
                == "[######..............]  30%  3,000/10,000 decided  1,000/s  ETA 7s  running")
        #expect(progress.plain(decided: 10_000, status: "completed") == "10,000/10,000 decided  1,000/s  completed")
    }

    @Test func theRateIsSmoothedAndNeverNegative() {
        var progress = CampaignProgress(planned: 100)
        let start = Date(timeIntervalSince1970: 0)
        progress.observed(decided: 0, at: start)
        #expect(progress.eta(decided: 0) == nil)
        progress.observed(decided: 40, at: start + 1)
        progress.observed(decided: 40, at: start + 2)
        #expect(progress.rate == 20)
        progress.observed(decided: 10, at: start + 3)
        #expect(progress.rate == 10)
    }

    @Test(arguments: [(0, "0s"), (59, "59s"), (75, "1m15s"), (3_725, "1h02m")])
    func durationsReadShort(seconds: Int, text: String) {
        #expect(CampaignProgress.duration(seconds) == text)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567"), (-1_500, "-1,500")])
    func countsAreGrouped(value: Int, text: String) {
        #expect(CampaignProgress.grouped(value) == text)
    }
}
