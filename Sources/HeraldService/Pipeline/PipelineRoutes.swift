import HeraldHTTP

/// The pipeline's routes: events (ingest, simulate, status), reads, and the delivery queue.
enum PipelineRoutes {
    static func register(on router: inout Router, context: ServiceContext) {
        let environment = PipelineEnvironment(context: context)
        EventsAPI.register(on: &router, environment: environment)
        ReadsAPI.register(on: &router, environment: environment)
        DeliveriesAPI.register(on: &router, environment: environment)
    }
}
