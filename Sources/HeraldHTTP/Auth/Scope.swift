/// A permission an API key can hold; `admin` satisfies every scope.
public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Publish events.
    case eventsWrite = "events:write"
    /// Manage categories and their templates.
    case categoriesWrite = "categories:write"
    /// Manage users, devices and preferences.
    case usersWrite = "users:write"
    /// Plan and run campaigns.
    case campaignsWrite = "campaigns:write"
    /// Claim and acknowledge deliveries.
    case deliveriesConsume = "deliveries:consume"
    /// Everything, including API key management.
    case admin
}
