import HeraldCore
import HeraldHTTP
import HeraldText

/// Reads a category from a JSON body member by member, collecting every member with the wrong type, an unknown
/// name or a bad locale at once; whatever cannot be read takes its default, so domain validation can still run.
struct CategoryReader {
    /// Members a client may send back from a GET; the server owns them, so their values are ignored.
    static let readOnlyMembers: Set<String> = ["archived", "archived_at", "version", "created_at", "updated_at"]
    static let writableMembers: Set<String> = [
        "id", "name", "description", "default_preference", "required", "delivery_mode", "priority",
        "interruption_level", "quiet_hours", "ttl_seconds", "collapse", "rate_limit", "counts_toward_user_rate_limit",
        "counts_toward_badge", "thread_key_template", "apns_category", "android_channel_id", "default_locale",
        "templates", "image_template", "link_template", "relevance_score", "kind",
    ]
    static let templateMembers: Set<String> = ["title", "body", "fallback_body", "digest_title", "digest_body"]
    /// The most locales one category may have templates for.
    static let maxLocales = 100
    /// The longest locale key or key template, in characters.
    static let maxLocaleLength = 64
    static let maxKeyTemplateLength = 256

    private(set) var errors: [FieldError] = []

    /// The category in `body`; `pathId` is the id from the URL when there is one (it must then agree).
    mutating func category(from body: HeraldHTTP.JSONValue, pathId: String?) -> Category {
        guard case .object(let members) = body else {
            fail("", "invalid_type", "the body must be a JSON object")
            return Category(id: pathId ?? "", name: "")
        }
        for name in members.keys.sorted()
        where !Self.writableMembers.contains(name) && !Self.readOnlyMembers.contains(name) {
            fail("/" + FieldError.token(name), "unknown_member", "is not a member of a category")
        }
        let bodyId = string(members, "id", required: pathId == nil)
        if let pathId, let bodyId, bodyId != pathId {
            fail("/id", "immutable", "is '\(pathId)' and cannot change")
        }
        var category = Category(id: pathId ?? bodyId ?? "", name: string(members, "name", required: true) ?? "")
        if let value = string(members, "description") { category.description = value }
        if let value: PreferenceSetting = choice(members, "default_preference") { category.defaultPreference = value }
        if let value = bool(members, "required") { category.required = value }
        if let value: Category.DeliveryMode = choice(members, "delivery_mode") { category.deliveryMode = value }
        if let value: Category.Priority = choice(members, "priority") { category.priority = value }
        if let value: Category.InterruptionLevel = choice(members, "interruption_level") {
            category.interruptionLevel = value
        }
        if let value: Category.Kind = choice(members, "kind") {
            category.kind = value
            category.quietHours = Category.defaultQuietHours(for: value)
            category.countsTowardBadge = Category.defaultCountsTowardBadge(for: value)
        }
        if let value: Category.QuietHoursPolicy = choice(members, "quiet_hours") { category.quietHours = value }
        if let value = int(members, "ttl_seconds", pointer: "/ttl_seconds") { category.ttlSeconds = value }
        category.collapse = collapse(members["collapse"])
        category.rateLimit = rateLimit(members["rate_limit"])
        if let value = bool(members, "counts_toward_user_rate_limit") { category.countsTowardUserRateLimit = value }
        if let value = bool(members, "counts_toward_badge") { category.countsTowardBadge = value }
        category.threadKeyTemplate = keyTemplate(members, "thread_key_template", pointer: "/thread_key_template")
        category.imageTemplate = string(members, "image_template", pointer: "/image_template")
        category.linkTemplate = string(members, "link_template", pointer: "/link_template")
        category.relevanceScore = number(members, "relevance_score", pointer: "/relevance_score")
        category.apnsCategory = string(members, "apns_category")
        category.androidChannelId = string(members, "android_channel_id")
        if let value = string(members, "default_locale") {
            category.defaultLocale = canonicalLocale(value, pointer: "/default_locale")
        }
        category.templates = templates(members["templates"])
        return category
    }

    /// One locale's templates from a body of their own, reported with pointers under `/templates/<locale>`.
    mutating func localizedTemplates(from body: HeraldHTTP.JSONValue, locale: String) -> LocalizedTemplates {
        localized(body, pointer: "/templates/" + FieldError.token(locale))
    }

    /// The canonical form of a locale tag (`pl_pl` → `pl-PL`), or the tag itself when it is not well-formed, so that
    /// validation reports it as unknown.
    mutating func canonicalLocale(_ tag: String, pointer: String) -> String {
        if tag.count > Self.maxLocaleLength {
            fail(pointer, "invalid_length", "a locale tag has at most \(Self.maxLocaleLength) characters")
            return tag
        }
        return ICUMessageRenderer.canonicalLocale(tag) ?? tag
    }

    mutating func fail(_ pointer: String, _ code: String, _ detail: String, offset: Int? = nil) {
        errors.append(FieldError(pointer: pointer, code: code, message: detail, offset: offset))
    }

    private mutating func collapse(_ value: HeraldHTTP.JSONValue?) -> Category.CollapseRule? {
        guard let members = object(value, pointer: "/collapse", allowed: ["key_template", "window_seconds"]) else {
            return nil
        }
        let template = keyTemplate(members, "key_template", pointer: "/collapse/key_template", required: true)
        let window = int(members, "window_seconds", pointer: "/collapse/window_seconds", required: true)
        guard let template, let window else { return nil }
        return Category.CollapseRule(keyTemplate: template, windowSeconds: window)
    }

    private mutating func rateLimit(_ value: HeraldHTTP.JSONValue?) -> Category.RateLimitRule? {
        guard
            let members = object(
                value, pointer: "/rate_limit", allowed: ["count", "window_seconds", "halve_after_dismissals"])
        else {
            return nil
        }
        let count = int(members, "count", pointer: "/rate_limit/count", required: true)
        let window = int(members, "window_seconds", pointer: "/rate_limit/window_seconds", required: true)
        let halving = int(
            members, "halve_after_dismissals", pointer: "/rate_limit/halve_after_dismissals", required: false)
        guard let count, let window else { return nil }
        return Category.RateLimitRule(count: count, windowSeconds: window, halveAfterDismissals: halving)
    }

    private mutating func templates(_ value: HeraldHTTP.JSONValue?) -> [String: LocalizedTemplates] {
        guard let value, !value.isNull else { return [:] }
        guard case .object(let members) = value else {
            fail("/templates", "invalid_type", "must be an object keyed by locale")
            return [:]
        }
        if members.count > Self.maxLocales {
            fail("/templates", "too_many", "at most \(Self.maxLocales) locales")
        }
        var templates: [String: LocalizedTemplates] = [:]
        for key in members.keys.sorted() {
            let pointer = "/templates/" + FieldError.token(key)
            let locale = canonicalLocale(key, pointer: pointer)
            if templates[locale] != nil {
                fail(pointer, "duplicate_locale", "names the same locale as another key ('\(locale)')")
                continue
            }
            templates[locale] = localized(members[key]!, pointer: pointer)
        }
        return templates
    }

    private mutating func localized(_ value: HeraldHTTP.JSONValue, pointer: String) -> LocalizedTemplates {
        guard let members = object(value, pointer: pointer, allowed: Self.templateMembers) else {
            if value.isNull { fail(pointer, "invalid_type", "must be an object of templates") }
            return LocalizedTemplates()
        }
        func field(_ name: String) -> String? { string(members, name, pointer: pointer + "/" + name) }
        return LocalizedTemplates(
            title: field("title"), body: field("body"), fallbackBody: field("fallback_body"),
            digestTitle: field("digest_title"), digestBody: field("digest_body"))
    }

    /// An object member limited to `allowed` names; nil when absent or null (and reported when of another type).
    private mutating func object(
        _ value: HeraldHTTP.JSONValue?, pointer: String, allowed: Set<String>
    ) -> [String: HeraldHTTP.JSONValue]? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let members) = value else {
            fail(pointer, "invalid_type", "must be an object")
            return nil
        }
        for name in members.keys.sorted() where !allowed.contains(name) {
            fail(pointer + "/" + FieldError.token(name), "unknown_member", "is not a known member")
        }
        return members
    }

    private mutating func keyTemplate(
        _ members: [String: HeraldHTTP.JSONValue], _ name: String, pointer: String, required: Bool = false
    ) -> String? {
        guard let template = string(members, name, pointer: pointer, required: required) else { return nil }
        if template.count > Self.maxKeyTemplateLength {
            fail(pointer, "invalid_length", "at most \(Self.maxKeyTemplateLength) characters")
        }
        return template
    }

    private mutating func string(
        _ members: [String: HeraldHTTP.JSONValue], _ name: String, pointer: String? = nil, required: Bool = false
    ) -> String? {
        let pointer = pointer ?? "/" + name
        switch members[name] {
        case .string(let text)?:
            if text.unicodeScalars.contains("\u{0}") {
                fail(pointer, "invalid_characters", "must not contain NUL characters")
                return nil
            }
            return text
        case nil, .null?:
            if required { fail(pointer, "required", "is required") }
            return nil
        default:
            fail(pointer, "invalid_type", "must be a string")
            return nil
        }
    }

    private mutating func number(
        _ members: [String: HeraldHTTP.JSONValue], _ name: String, pointer: String
    ) -> Double? {
        switch members[name] {
        case .int(let number)?: return Double(number)
        case .double(let number)?: return number
        case nil, .null?: return nil
        default:
            fail(pointer, "invalid_type", "must be a number")
            return nil
        }
    }

    private mutating func int(
        _ members: [String: HeraldHTTP.JSONValue], _ name: String, pointer: String, required: Bool = false
    ) -> Int? {
        switch members[name] {
        case .int(let number)?: return number
        case nil, .null?:
            if required { fail(pointer, "required", "is required") }
            return nil
        default:
            fail(pointer, "invalid_type", "must be an integer")
            return nil
        }
    }

    private mutating func bool(_ members: [String: HeraldHTTP.JSONValue], _ name: String) -> Bool? {
        switch members[name] {
        case .bool(let flag)?: return flag
        case nil, .null?: return nil
        default:
            fail("/" + name, "invalid_type", "must be true or false")
            return nil
        }
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ members: [String: HeraldHTTP.JSONValue], _ name: String
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(members, name) else { return nil }
        if let value = Choice(rawValue: text) { return value }
        let allowed = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        fail("/" + name, "invalid_value", "must be one of \(allowed)")
        return nil
    }
}
