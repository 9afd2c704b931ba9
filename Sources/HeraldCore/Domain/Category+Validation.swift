/// Validation of a whole category, reporting every bad field at once.
extension Category {
    /// Every invalid field with its JSON pointer; `checker` adds template syntax and locale checks when given.
    public func validate(checker: (any TemplateSyntaxChecker)? = nil) -> [FieldError] {
        var errors: [FieldError] = []
        func fail(_ pointer: String, _ code: String, _ message: String, offset: Int? = nil) {
            errors.append(FieldError(pointer: pointer, code: code, message: message, offset: offset))
        }
        func range(_ value: Int, _ bounds: ClosedRange<Int>, _ pointer: String) {
            if !bounds.contains(value) {
                fail(
                    pointer, "out_of_range", "must be between \(bounds.lowerBound) and \(bounds.upperBound)")
            }
        }
        if !CategoryRules.isSlug(id) {
            fail("/id", "invalid_format", "must match ^[a-z0-9][a-z0-9._-]{0,63}$")
        }
        // Characters as people count them, and bytes: one character may carry any number of combining marks.
        if !CategoryRules.nameLength.contains(name.count) || name.utf8.count > CategoryRules.nameMaxBytes {
            fail(
                "/name", "invalid_length",
                "must be 1 to \(CategoryRules.nameLength.upperBound) characters and at most "
                    + "\(CategoryRules.nameMaxBytes) bytes")
        }
        if description.count > CategoryRules.descriptionMaxLength
            || description.utf8.count > CategoryRules.descriptionMaxBytes
        {
            fail(
                "/description", "invalid_length",
                "at most \(CategoryRules.descriptionMaxLength) characters and \(CategoryRules.descriptionMaxBytes) bytes"
            )
        }
        range(ttlSeconds, CategoryRules.ttlSeconds, "/ttl_seconds")
        if let collapse {
            range(collapse.windowSeconds, CategoryRules.collapseWindowSeconds, "/collapse/window_seconds")
            errors += Self.keyTemplateErrors(collapse.keyTemplate, pointer: "/collapse/key_template")
        }
        if let rateLimit {
            range(rateLimit.count, CategoryRules.rateLimitCount, "/rate_limit/count")
            range(
                rateLimit.windowSeconds, CategoryRules.rateLimitWindowSeconds, "/rate_limit/window_seconds")
            if let dismissals = rateLimit.halveAfterDismissals {
                range(dismissals, InterruptionBudget.dismissals, "/rate_limit/halve_after_dismissals")
            }
        }
        if let threadKeyTemplate {
            errors += Self.keyTemplateErrors(threadKeyTemplate, pointer: "/thread_key_template")
        }
        for (template, pointer, scheme) in [
            (imageTemplate, "/image_template", "https://"), (linkTemplate, "/link_template", ""),
        ] {
            guard let template else { continue }
            let parsed = Self.keyTemplateErrors(template, pointer: pointer)
            errors += parsed
            // The literal text before the first placeholder must already be a valid start of an address.
            let head = template.prefix { $0 != "{" }
            let valid = scheme.isEmpty ? NotificationMedia.isLink(head + "x") : NotificationMedia.isImageURL(head + "x")
            if parsed.isEmpty, template.utf8.count > NotificationMedia.maxBytes || !valid {
                fail(
                    pointer, "invalid_format",
                    scheme.isEmpty
                        ? "must render an app's deep link or an https:// address"
                        : "must render an https:// address")
            }
        }
        if kind == .liveActivity {
            // An activity shows the newest state: a burst has nothing to fold, and there is no sound to silence.
            if collapse != nil { fail("/collapse", "not_allowed", "a live_activity category does not collapse") }
            if quietHours == .silent {
                fail("/quiet_hours", "not_allowed", "a live_activity category takes bypass, defer or drop")
            }
            // An update leaves no feed entry, so nothing would ever read what it added to the unread count.
            if countsTowardBadge {
                fail(
                    "/counts_toward_badge", "not_allowed",
                    "a live_activity category does not count toward the badge: its updates leave no feed entry")
            }
        }
        if let relevanceScore, !(0...1).contains(relevanceScore) {
            fail("/relevance_score", "out_of_range", "must be between 0 and 1")
        }
        if let apnsCategory,
            apnsCategory.isEmpty || apnsCategory.utf8.count > CategoryRules.apnsCategoryMaxBytes
        {
            fail(
                "/apns_category", "invalid_length",
                "must be 1 to \(CategoryRules.apnsCategoryMaxBytes) bytes")
        }
        if let androidChannelId,
            androidChannelId.isEmpty || androidChannelId.utf8.count > CategoryRules.androidChannelMaxBytes
        {
            fail(
                "/android_channel_id", "invalid_length",
                "must be 1 to \(CategoryRules.androidChannelMaxBytes) bytes")
        }
        if !CategoryRules.isLocaleTag(defaultLocale)
            || checker.map({ !$0.knowsLocale(defaultLocale) }) == true
        {
            fail("/default_locale", "unknown_locale", "is not a known locale")
        }
        if templates[defaultLocale] == nil {
            fail(
                "/templates", "missing_default_locale",
                "needs templates for the default locale '\(defaultLocale)'")
        }
        for locale in templates.keys.sorted() {
            errors += templateErrors(locale: locale, templates: templates[locale]!, checker: checker)
        }
        return errors
    }

    private static func keyTemplateErrors(_ template: String, pointer: String) -> [FieldError] {
        do throws(KeyTemplate.ParseError) {
            _ = try KeyTemplate(template)
            return []
        } catch {
            return [
                FieldError(
                    pointer: pointer, code: "invalid_template", message: error.message, offset: error.offset)
            ]
        }
    }

    private func templateErrors(
        locale: String, templates: LocalizedTemplates, checker: (any TemplateSyntaxChecker)?
    ) -> [FieldError] {
        let base = "/templates/" + FieldError.token(locale)
        var errors: [FieldError] = []
        if !CategoryRules.isLocaleTag(locale) || checker.map({ !$0.knowsLocale(locale) }) == true {
            errors.append(
                FieldError(
                    pointer: base, code: "unknown_locale", message: "'\(locale)' is not a known locale"))
        }
        if deliveryMode != .app, templates.title == nil, templates.body == nil {
            errors.append(
                FieldError(pointer: base + "/body", code: "required", message: "title or body is required"))
        }
        if deliveryMode != .system, templates.fallbackBody == nil {
            errors.append(
                FieldError(
                    pointer: base + "/fallback_body", code: "required",
                    message: "is required when the app builds the notification"))
        }
        for (field, template) in templates.fields {
            let pointer = base + "/" + field
            if template.isEmpty || template.count > CategoryRules.templateMaxLength {
                errors.append(
                    FieldError(
                        pointer: pointer, code: "invalid_length",
                        message: "must be 1 to \(CategoryRules.templateMaxLength) characters"))
            } else if let problem = checker?.problem(in: template, locale: locale) {
                errors.append(
                    FieldError(
                        pointer: pointer, code: "invalid_template", message: problem.message,
                        offset: problem.offset))
            }
        }
        return errors
    }
}
