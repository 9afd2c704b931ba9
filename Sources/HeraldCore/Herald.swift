/// Herald's domain: events, categories, recipients, policy and decisions, as plain values.
public enum Herald {
    /// The product version reported by `/health` and the start-up log.
    public static let version = "0.1.0"
}
