import Foundation
import HeraldCore
import Synchronization
import Testing

@testable import HeraldText

@Suite("ICU zone directory")
struct ICUZoneDirectoryTests {
    @Test(
        "Aliases are accepted and canonicalized to IANA ids",
        arguments: [
            ("US/Eastern", "America/New_York"), ("Asia/Calcutta", "Asia/Kolkata"),
            ("Asia/Kolkata", "Asia/Kolkata"),
            ("Europe/Kiev", "Europe/Kyiv"), ("UTC", "Etc/UTC"), ("PST", "America/Los_Angeles"),
            ("America/Ciudad_Juarez", "America/Ciudad_Juarez"),
        ])
    func aliases(alias: String, canonical: String) throws {
        ZoneTestSupport.requireCurrentData()
        let rules = try ZoneTestSupport.rules(alias)
        #expect(rules.identifier == canonical)
        #expect(ZoneTestSupport.directory.canonicalIdentifier(alias) == canonical)
    }

    @Test(
        "Unknown ids are rejected, never UTC",
        arguments: [
            "Etc/Unknown", "Factory", "Mars/Olympus_Mons", "america/new_york", "GMT+05:00", "",
            "Europe/Berlin ",
            "../../etc/passwd", "Europe/Berlin\u{0}",
        ])
    func unknown(id: String) {
        #expect(ZoneTestSupport.directory.zone(id) == nil)
        #expect(throws: TimeZoneDataError.self) { try ZoneTestSupport.directory.rules(for: id) }
    }

    @Test("The id lists hold every OS zone and link")
    func identifierLists() throws {
        ZoneTestSupport.requireCurrentData()
        let source = try TimeZoneSource.load(from: TimeZoneData.defaultSourceDirectory)
        let canonical = Set(ZoneTestSupport.directory.identifiers)
        let all = Set(ZoneTestSupport.directory.allIdentifiers)
        #expect(Set(source.zones).subtracting(["Factory"]).isSubset(of: canonical))
        #expect(Set(source.links.keys).isSubset(of: all))
        #expect(!all.contains("Etc/Unknown") && !all.contains("Factory"))
        #expect(canonical.isDisjoint(with: source.links.keys))
    }

    @Test("Answers agree across threads and are fast")
    func concurrentLookups() throws {
        ZoneTestSupport.requireCurrentData()
        let zones = [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
            "America/Sao_Paulo",
        ]
        let start = ZoneTestSupport.utc("2026-01-01T00:00:00Z").timeIntervalSince1970
        let perThread = 200_000
        let threads = 4
        let checksums = Mutex<[Int]>([])
        let began = Date()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let directory = ZoneTestSupport.directory
            var sum = 0
            for i in 0..<perThread {
                let rules = directory.zone(zones[i % zones.count])!
                let instant = Date(timeIntervalSince1970: start + Double(i % 1000) * 31_337)
                sum &+= rules.offsetSeconds(at: instant)
                sum &+= Int(rules.instant(for: rules.localDateTime(at: instant)).timeIntervalSince1970)
            }
            checksums.withLock { $0.append(sum) }
        }
        let seconds = Date().timeIntervalSince(began)
        let lookups = Double(threads * perThread * 3)
        print("zone lookups: \(Int(lookups / seconds)) per second over \(threads) threads")
        let sums = checksums.withLock { $0 }
        #expect(sums.count == threads && Set(sums).count == 1)
    }

    @Test("A zone's rules are built once, however many threads first ask for it at once")
    func buildsOnce() throws {
        ZoneTestSupport.requireCurrentData()
        let directory = ICUZoneDirectory()
        // Aliases and canonical ids of three zones, each thread in its own order.
        let ids = ["Europe/Berlin", "US/Eastern", "America/New_York", "Asia/Calcutta", "Asia/Kolkata", "Europe/Berlin"]
        let threads = 6
        let ready = Atomic<Int>(0)
        let instances = Mutex<Set<ObjectIdentifier>>([])
        let done = DispatchGroup()
        for index in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                // Every thread starts asking when all are running, so that their first lookups race.
                ready.add(1, ordering: .relaxed)
                while ready.load(ordering: .relaxed) < threads {}
                for step in 0..<ids.count {
                    let id = ids[(step + index) % ids.count]
                    guard let rules = try? directory.rules(for: id) else { continue }
                    instances.withLock { _ = $0.insert(ObjectIdentifier(rules)) }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(directory.buildCount == 3)
        #expect(instances.withLock { $0.count } == 3)
        #expect(try directory.rules(for: "US/Eastern") === directory.rules(for: "America/New_York"))
    }

    @Test("Instants beyond the table horizon are answered by ICU itself")
    func beyondHorizon() throws {
        ZoneTestSupport.requireCurrentData()
        let shortTable = ICUZoneDirectory(tableUntilYear: 2030)
        let rules = try #require(shortTable.zone("Europe/Berlin"))
        #expect(rules.offsetSeconds(at: ZoneTestSupport.utc("2035-07-01T00:00:00Z")) == 7200)
        #expect(
            rules.nextTransition(after: ZoneTestSupport.utc("2029-11-01T00:00:00Z"))
                == ZoneTestSupport.utc("2030-03-31T01:00:00Z"))
        #expect(
            rules.instant(for: ZoneTestSupport.local("2035-03-25T02:30"))
                == ZoneTestSupport.utc("2035-03-25T01:00:00Z"))
        #expect(
            rules.instant(for: ZoneTestSupport.local("2035-10-28T02:30"))
                == ZoneTestSupport.utc("2035-10-28T00:30:00Z"))
    }
}
