import Foundation
import HeraldCore

/// What registering a device did.
public struct DeviceRegistration: Sendable, Hashable {
    /// The device as stored now.
    public var record: DeviceRecord
    /// Whether the installation is new.
    public var created: Bool
    /// Installations that held the same token before and were removed (one token, one owner).
    public var displacedInstallations: [String]
    /// The user the installation belonged to before, when the registration moved it to a new user.
    public var movedFromUser: String?

    /// Creates a result.
    public init(record: DeviceRecord, created: Bool, displacedInstallations: [String], movedFromUser: String? = nil) {
        self.record = record
        self.movedFromUser = movedFromUser
        self.created = created
        self.displacedInstallations = displacedInstallations
    }
}
