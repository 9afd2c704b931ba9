import HeraldHTTP
import Testing

@Suite struct LRUCacheTests {
    @Test func aFullCacheForgetsTheLeastRecentlyUsedEntryOnly() {
        var cache = LRUCache<String, Int>(capacity: 3)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        cache.set(3, for: "c")
        #expect(cache.value(for: "a") == 1)  // a is now the most recent; b the least
        cache.set(4, for: "d")
        #expect(cache.count == 3)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.value(for: "d") == 4)
    }

    @Test func overwritingAnEntryMakesItTheMostRecent() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        cache.set(10, for: "a")
        cache.set(3, for: "c")
        #expect(cache.value(for: "a") == 10)
        #expect(cache.value(for: "b") == nil)
    }

    @Test func removedEntriesFreeTheirRoom() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        cache.removeValue(for: "a")
        cache.set(3, for: "c")
        #expect(cache.value(for: "b") == 2)
        #expect(cache.value(for: "c") == 3)
        cache.removeAll()
        #expect(cache.count == 0)
        cache.set(4, for: "d")
        #expect(cache.value(for: "d") == 4)
    }

    /// Thousands of mixed operations against a plain array kept in use order: same answers, same survivors.
    @Test(arguments: [1, 2, 7, 64])
    func manyOperationsAgreeWithASimpleModel(capacity: Int) {
        var cache = LRUCache<Int, Int>(capacity: capacity)
        var model: [(key: Int, value: Int)] = []  // least recent first
        var random = LinearCongruential(seed: UInt64(capacity))
        for step in 0..<20_000 {
            let key = Int(random.next() % 100)
            switch random.next() % 3 {
            case 0:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                #expect(cache.value(for: key) == expected?.value, "step \(step)")
            case 1:
                model.removeAll { $0.key == key }
                if model.count >= capacity { model.removeFirst() }
                model.append((key, step))
                cache.set(step, for: key)
            default:
                model.removeAll { $0.key == key }
                cache.removeValue(for: key)
            }
            #expect(cache.count == model.count)
        }
        for entry in model { #expect(cache.value(for: entry.key) == entry.value) }
    }
}

/// Knuth's MMIX linear congruential generator: deterministic, so a failure repeats.
struct LinearCongruential {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
