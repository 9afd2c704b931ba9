import HeraldHTTP

/// The client surface: token minting for the app's backend and the `/v1/me` routes the app calls itself.
enum ClientRoutes {
    static func register(on router: inout Router, context: ServiceContext) {
        let environment = PipelineEnvironment(context: context)
        let metrics = ReceiptMetrics(context.metrics)
        ClientTokensAPI.register(on: &router, context: context)
        MeFeedAPI.register(on: &router, environment: environment)
        MeReceiptsAPI.register(on: &router, environment: environment, metrics: metrics)
        MePreferencesAPI.register(on: &router, context: context)
        CategoryStatsAPI.register(on: &router, context: context)
    }
}
