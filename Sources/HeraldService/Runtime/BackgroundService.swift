/// A part of `herald serve` that works in the background beside the HTTP server: the pipeline workers, the
/// campaign runner, the retention job, the NATS consumer and relay, the memory trimmer. `ServiceGroup` starts and
/// stops them in order.
///
/// Conforming types are handles: a copy starts and stops the same running part. `stop()` follows `start()` (once it
/// has returned or thrown), never runs beside it.
protocol BackgroundService: Sendable {
    /// What the part is, for logs and errors.
    var name: String { get }

    /// Opens what the part needs and starts it on threads of its own, then returns; it runs until `stop()`. A start
    /// that throws leaves nothing running or open. A part starts once.
    func start() throws

    /// Lets the work in hand finish, stops the part's threads and closes what it opened, and returns once it has
    /// stopped. Safe to call more than once, and before `start`.
    func stop()
}
