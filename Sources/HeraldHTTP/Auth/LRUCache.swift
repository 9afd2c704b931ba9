/// A bounded map that forgets its least recently used entry to make room: reads and writes are O(1), and a full
/// cache never empties at once, so a burst of new keys pushes out only the coldest ones.
public struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var older: Int?
        var newer: Int?
    }

    /// The most entries kept.
    public let capacity: Int
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var free: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    /// Creates an empty cache of at most `capacity` entries (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries.
    public var count: Int { slots.count }

    /// The value of `key`, marked as just used; nil when absent.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        touch(slot)
        return nodes[slot].value
    }

    /// Stores `value` for `key` as the most recently used entry, forgetting the least recently used one when full.
    public mutating func set(_ value: Value, for key: Key) {
        if let slot = slots[key] {
            nodes[slot].value = value
            touch(slot)
            return
        }
        if slots.count >= capacity, let oldest { remove(at: oldest) }
        let node = Node(key: key, value: value, older: newest, newer: nil)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
    }

    /// Forgets `key`.
    public mutating func removeValue(for key: Key) {
        if let slot = slots[key] { remove(at: slot) }
    }

    /// Forgets every entry.
    public mutating func removeAll() {
        nodes.removeAll()
        slots.removeAll()
        free.removeAll()
        newest = nil
        oldest = nil
    }

    private mutating func touch(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func remove(at slot: Int) {
        unlink(slot)
        slots.removeValue(forKey: nodes[slot].key)
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (older, newer) = (nodes[slot].older, nodes[slot].newer)
        if let older { nodes[older].newer = newer } else { oldest = newer }
        if let newer { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = nil
        nodes[slot].newer = nil
    }
}
