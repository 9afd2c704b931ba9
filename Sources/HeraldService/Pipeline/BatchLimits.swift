/// How much one worker transaction takes on.
struct BatchLimits: Sendable, Hashable {
    /// Events claimed per batch.
    var events: Int = 200
    /// Due collapse-window timers fired per batch.
    var timers: Int = 500
    /// Topic subscribers decided per event per batch (the rest in later batches).
    var topicPage: Int = 1_000
    /// Recipients per batch, over all events; events past it wait for the next batch.
    var recipients: Int = 5_000
}
