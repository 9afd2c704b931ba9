import HeraldHTTP

/// Every route of the service, in one router.
enum APIRoutes {
    static func router(context: ServiceContext) -> Router {
        var router = Router()
        OperationsAPI.register(on: &router, context: context)
        APIKeysAPI.register(on: &router, context: context)
        CategoriesAPI.register(on: &router, context: context)
        RecipientRoutes.register(on: &router, context: context)
        PipelineRoutes.register(on: &router, context: context)
        ClientRoutes.register(on: &router, context: context)
        CampaignsAPI.register(on: &router, context: context)
        ConsoleRoutes.register(on: &router, files: context.console)
        return router
    }
}
