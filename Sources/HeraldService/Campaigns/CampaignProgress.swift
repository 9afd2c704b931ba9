import Foundation

/// Follows a campaign's decided count between polls and renders the progress line of `herald campaign show
/// --follow`: a bar on a terminal, a plain line otherwise. Pure: the caller passes each observation's time.
struct CampaignProgress: Sendable {
    /// Recipients expected to be decided (planned, skipped waves left out).
    var planned: Int
    private var last: (decided: Int, at: Date)?
    /// Decisions per second, smoothed over polls.
    private(set) var rate: Double = 0

    /// Starts following a campaign of `planned` recipients.
    init(planned: Int) {
        self.planned = planned
    }

    /// Records the decided count seen at `now`.
    mutating func observed(decided: Int, at now: Date) {
        if let last, now > last.at {
            let instant = Double(max(0, decided - last.decided)) / now.timeIntervalSince(last.at)
            rate = rate == 0 ? instant : 0.5 * rate + 0.5 * instant
        }
        last = (decided, now)
    }

    /// Seconds left at the current rate, if it can be told.
    func eta(decided: Int) -> Int? {
        guard rate > 0 else { return nil }
        return Int((Double(max(0, planned - decided)) / rate).rounded(.up))
    }

    /// `[#######.............]  35%  3,500/10,000 decided  1,200/s  ETA 6s` (width 20 bar).
    func bar(decided: Int, status: String) -> String {
        let fraction = planned > 0 ? min(1, Double(decided) / Double(planned)) : 1
        let filled = Int((fraction * 20).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
        return bar + " " + pad(String(Int((fraction * 100).rounded(.down))) + "%", 4) + "  "
            + plain(
                decided: decided, status: status)
    }

    /// `3,500/10,000 decided  1,200/s  ETA 6s  running`, for logs and pipes.
    func plain(decided: Int, status: String) -> String {
        var parts = ["\(Self.grouped(decided))/\(Self.grouped(planned)) decided", "\(Self.grouped(Int(rate)))/s"]
        if status == "running", let eta = eta(decided: decided) { parts.append("ETA \(Self.duration(eta))") }
        parts.append(status)
        return parts.joined(separator: "  ")
    }

    /// 1234567 → `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(abs(value)))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// 75 → `1m15s`, 3725 → `1h02m`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3_600 { return "\(seconds / 60)m\(twoDigits(seconds % 60))s" }
        return "\(seconds / 3_600)h\(twoDigits(seconds % 3_600 / 60))m"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
