/// Bounds on event fields: identifiers end up in push payloads, so their size is bounded here.
extension Event {
    /// The longest identifier (event, user, thread, item, actor), in UTF-8 bytes.
    public static let maxIdentifierBytes = 128
    /// The most explicit user ids one event may name; larger audiences use a topic.
    public static let maxUserIds = 10_000

    /// Whether members that only some categories take need `category` to judge them: a ciphertext or a Live
    /// Activity update.
    public var needsCategoryAdmission: Bool { ciphertext != nil || liveActivity != nil }

    /// Why `category` refuses the event's members: a ciphertext where no app runs first (`Ciphertext.admission`),
    /// a Live Activity update in a category of notifications.
    public func admission(in category: Category) -> [FieldError] {
        var errors: [FieldError] = []
        if ciphertext != nil, let refusal = Ciphertext.admission(in: category) { errors.append(refusal) }
        if liveActivity != nil, category.kind != .liveActivity {
            errors.append(
                FieldError(
                    pointer: "/live_activity", code: "not_allowed",
                    message: "only a category of kind live_activity updates a Live Activity"))
        }
        return errors
    }

    /// Every invalid field, each with its JSON pointer.
    public func validate() -> [FieldError] {
        var errors: [FieldError] = []
        func identifier(_ value: String?, _ pointer: String, required: Bool = false) {
            guard let value else {
                if required {
                    errors.append(FieldError(pointer: pointer, code: "required", message: "is required"))
                }
                return
            }
            if value.isEmpty || value.utf8.count > Self.maxIdentifierBytes {
                errors.append(
                    FieldError(
                        pointer: pointer, code: "invalid_length",
                        message: "must be 1 to \(Self.maxIdentifierBytes) bytes"))
            }
        }
        identifier(id, "/id", required: true)
        if !CategoryRules.isSlug(category) {
            errors.append(
                FieldError(pointer: "/category", code: "invalid_format", message: "is not a category id"))
        }
        if recipients.userIds.isEmpty && recipients.topic == nil {
            errors.append(
                FieldError(pointer: "/recipients", code: "required", message: "needs user_ids or a topic"))
        }
        if recipients.userIds.count > Self.maxUserIds {
            // Too many to check one by one: the list itself is the error.
            errors.append(
                FieldError(
                    pointer: "/recipients/user_ids", code: "too_many",
                    message: "at most \(Self.maxUserIds) user ids; use a topic"))
        } else {
            for (index, user) in recipients.userIds.enumerated() {
                identifier(user, "/recipients/user_ids/\(index)")
            }
        }
        // A topic follows the rule subscriptions do (`OpaqueIdentifier`), so that every topic an event may name
        // can have subscribers.
        if let topic = recipients.topic,
            !OpaqueIdentifier.isValid(topic, maxLength: OpaqueIdentifier.maxTopicLength)
        {
            errors.append(
                FieldError(
                    pointer: "/recipients/topic", code: "invalid_format",
                    message: OpaqueIdentifier.rule(maxLength: OpaqueIdentifier.maxTopicLength)))
        }
        identifier(actor, "/actor")
        identifier(threadId, "/thread_id")
        identifier(itemId, "/item_id")
        if let imageURL, !NotificationMedia.isImageURL(imageURL) {
            errors.append(
                FieldError(
                    pointer: "/image_url", code: "invalid_format",
                    message: "must be an https:// address of at most \(NotificationMedia.maxBytes) bytes"))
        }
        if let link, !NotificationMedia.isLink(link) {
            errors.append(
                FieldError(
                    pointer: "/link", code: "invalid_format",
                    message: "must be an app's deep link or an https:// address of at most "
                        + "\(NotificationMedia.maxBytes) bytes"))
        }
        if let ciphertext { errors += ciphertext.validate() }
        if liveActivity != nil, JSONValue.object(data).serialized().count > LiveActivityUpdate.maxContentStateBytes {
            errors.append(
                FieldError(
                    pointer: "/data", code: "invalid_length",
                    message: "a live activity's content state is at most \(LiveActivityUpdate.maxContentStateBytes) "
                        + "bytes of JSON"))
        }
        if let actorName, actorName.utf8.count > 256 {
            errors.append(
                FieldError(pointer: "/actor_name", code: "invalid_length", message: "at most 256 bytes"))
        }
        return errors
    }
}
