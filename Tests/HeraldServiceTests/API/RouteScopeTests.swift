import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

/// Walks every route of the service with no key, a bad key, and a key of each scope: the auth outcome must be
/// exactly what the route declares, whatever the handler does with the (dummy) input afterwards.
@Suite("Every route × every scope")
struct RouteScopeTests {
    @Test func everyRouteHonoursItsAuthRequirement() throws {
        let service = try TestService.make()
        defer { service.close() }
        var keys: [Scope: String] = [:]
        for scope in Scope.allCases { keys[scope] = try service.key([scope], name: scope.rawValue) }
        // The client token's user exists: a token whose user was deleted (or never created) opens nothing.
        #expect(
            service.send(.put, "/v1/users/probe-user", json: #"{"locale":"en"}"#, key: .some(service.adminKey)).status
                == .created)
        let now = service.context.clock()
        let clientToken = service.context.clientTokens!.mint(
            userID: "probe-user", issuedAt: now, expiresAt: now.addingTimeInterval(600))
        let routes = APIRoutes.router(context: service.context).routes
        #expect(routes.count >= 6)
        for route in routes {
            let target = route.pattern.parameterNames.reduce(route.pattern.template) { path, name in
                path.replacingOccurrences(of: "{\(name)}", with: "probe-\(name)")
            }
            let anonymous = service.send(route.method, target, json: "{}", key: .none)
            let forged = service.send(route.method, target, json: "{}", key: .some("hk_not_a_key_at_all_000000"))
            switch route.auth {
            case .public:
                #expect(anonymous.status != .unauthorized, "\(route.method) \(target)")
            case .anyKey, .scope, .clientUser:
                #expect(anonymous.status == .unauthorized, "\(route.method) \(target) without a key")
                #expect(forged.status == .unauthorized, "\(route.method) \(target) with an unknown key")
                #expect(anonymous.headers["WWW-Authenticate"] != nil)
            }
            for (scope, key) in keys {
                let status = service.send(route.method, target, json: "{}", key: .some(key)).status
                let allowed: Bool =
                    switch route.auth {
                    case .public, .anyKey: true
                    case .scope(let needed): scope == needed || scope == .admin
                    case .clientUser: false
                    }
                #expect(status != .unauthorized, "\(route.method) \(target) as \(scope.rawValue)")
                if allowed {
                    #expect(status != .forbidden, "\(route.method) \(target) as \(scope.rawValue)")
                } else {
                    #expect(status == .forbidden, "\(route.method) \(target) as \(scope.rawValue)")
                }
                #expect(status.rawValue < 500, "\(route.method) \(target) as \(scope.rawValue): \(status.rawValue)")
            }
            // A client token opens the /v1/me routes of its user and nothing else.
            let client = service.send(route.method, target, json: "{}", key: .some(clientToken)).status
            if case .clientUser = route.auth {
                #expect(client != .unauthorized && client != .forbidden, "\(route.method) \(target) as client")
                #expect(client.rawValue < 500, "\(route.method) \(target) as client: \(client.rawValue)")
            } else if case .public = route.auth {
                #expect(client != .unauthorized, "\(route.method) \(target) as client")
            } else {
                #expect(client == .forbidden, "\(route.method) \(target) as client")
            }
        }
    }

    @Test func campaignRoutesNeedTheCampaignsScope() throws {
        let service = try TestService.make()
        defer { service.close() }
        let routes = APIRoutes.router(context: service.context).routes.filter {
            $0.pattern.template.hasPrefix("/v1/campaigns")
        }
        #expect(
            Set(routes.map { "\($0.method.rawValue) \($0.pattern.template)" }) == [
                "POST /v1/campaigns", "POST /v1/campaigns:plan", "GET /v1/campaigns", "GET /v1/campaigns/{id}",
                "POST /v1/campaigns/{id}/cancel",
            ])
        for route in routes {
            guard case .scope(let scope) = route.auth else {
                Issue.record("\(route.pattern.template) is not scoped")
                continue
            }
            #expect(scope == .campaignsWrite)
        }
    }
}
