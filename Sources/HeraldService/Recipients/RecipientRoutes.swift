import HeraldHTTP

/// The routes about recipients: users, preferences, mutes, topics, devices and their Live Activities, feedback and
/// bulk import.
enum RecipientRoutes {
    static func register(on router: inout Router, context: ServiceContext) {
        ImportAPI.register(on: &router, context: context)
        UsersAPI.register(on: &router, context: context)
        UsersPreferencesAPI.register(on: &router, context: context)
        UsersMutesAPI.register(on: &router, context: context)
        UsersDecisionsAPI.register(on: &router, context: context)
        TopicsAPI.register(on: &router, context: context)
        DevicesAPI.register(on: &router, context: context)
        LiveActivitiesAPI.register(on: &router, context: context)
        FeedbackAPI.register(on: &router, context: context)
    }
}
