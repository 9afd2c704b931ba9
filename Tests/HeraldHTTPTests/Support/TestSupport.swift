import Glibc
import HeraldHTTP
import Synchronization

/// Polls `condition` until it holds or the deadline passes; returns whether it held.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Keys used by the tests' stub authenticator.
enum TestKeys {
    static let admin = "hk_admin_secret"
    static let events = "hk_events_secret"
    static let none = "hk_no_scopes"

    static let authenticator = StaticAuthenticator(secrets: [
        admin: Principal(keyID: "key-admin", scopes: [.admin]),
        events: Principal(keyID: "key-events", scopes: [.eventsWrite]),
        none: Principal(keyID: "key-none", scopes: []),
    ])
}
