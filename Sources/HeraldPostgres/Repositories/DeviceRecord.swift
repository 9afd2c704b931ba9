import Foundation
import HeraldCore

/// A device as stored: the device plus when it was created and, when inactive, when and why it stopped.
public struct DeviceRecord: Sendable, Hashable {
    /// The installation, its token and its settings.
    public var device: Device
    /// When the installation first registered.
    public var createdAt: Date
    /// When the device stopped receiving pushes, if it did.
    public var deactivatedAt: Date?
    /// Why it stopped, as reported.
    public var deactivationReason: String?

    /// Creates a record.
    public init(device: Device, createdAt: Date, deactivatedAt: Date? = nil, deactivationReason: String? = nil) {
        self.device = device
        self.createdAt = createdAt
        self.deactivatedAt = deactivatedAt
        self.deactivationReason = deactivationReason
    }
}
