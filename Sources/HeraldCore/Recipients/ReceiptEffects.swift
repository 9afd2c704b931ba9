import Foundation

/// What an app reports one of its notifications did on a device.
public enum ReceiptKind: String, Sendable, Hashable, CaseIterable {
    case displayed
    case opened
    case dismissed

    /// Whether a receipt of this kind moves its category's dismissal streak (`InterruptionBudget`): an open resets
    /// it, a dismissal extends it, a display changes nothing.
    public var movesDismissalStreak: Bool { self != .displayed }
}

/// A notification an open reads: by its item when it names one (every notification of the item is read), else by
/// its own id. Opening a digest reads the notifications of the burst it summarises.
public struct OpenedNotification: Sendable, Hashable {
    public var notificationId: String
    public var itemId: String?

    /// Creates an opened notification.
    public init(notificationId: String, itemId: String?) {
        self.notificationId = notificationId
        self.itemId = itemId
    }
}

/// What opens do besides being counted: each device's opens are one read of what it opened, on that device, so the
/// badge drops and every other device withdraws them, the device that opened them included when another device
/// opened them too.
public enum ReceiptEffects {
    /// The reads `opens` ask for: one per device, in the order the devices first appear, each of everything that
    /// device opened, by item or by id.
    public static func reads(userId: String, opens: [(device: String, opened: [OpenedNotification])]) -> [ReadScope] {
        var devices: [String] = []
        var byDevice: [String: [OpenedNotification]] = [:]
        for (device, opened) in opens {
            if byDevice[device] == nil { devices.append(device) }
            byDevice[device, default: []] += opened
        }
        return devices.compactMap { device in
            let opened = byDevice[device]!
            let items = Array(Set(opened.compactMap(\.itemId))).sorted()
            let itemless = Array(Set(opened.filter { $0.itemId == nil }.map(\.notificationId))).sorted()
            guard !items.isEmpty || !itemless.isEmpty else { return nil }
            return ReadScope(
                userId: userId, itemIds: items, threadId: nil, notificationIds: itemless,
                originInstallationId: device)
        }
    }
}
