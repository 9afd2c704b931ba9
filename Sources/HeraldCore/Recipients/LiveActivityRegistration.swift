/// Whether a device may register a push token for one of its Live Activities: only Apple devices run them, the
/// token has the shape of an APNs token, and one device holds a bounded number of activities.
public enum LiveActivityRegistration {
    /// The most activities one installation holds tokens for (iOS runs a handful at once; ended ones are removed).
    public static let maxActivitiesPerDevice = 20

    /// Why a token was refused: every problem, with pointers relative to the request body.
    public struct Refusal: Error, Sendable, Hashable {
        public var errors: [FieldError]
    }

    /// The canonical token for `activityId` on `device`, which holds tokens for `registered`, or every problem,
    /// with pointers relative to the request body.
    public static func check(
        token: String, activityId: String, device: Device, registered: Set<String>
    ) -> Result<String, Refusal> {
        var errors: [FieldError] = []
        if device.platform != .apns {
            errors.append(
                FieldError(
                    pointer: "", code: "not_allowed",
                    message: "only an APNs device runs Live Activities; this one is \(device.platform.rawValue)"))
        }
        if !registered.contains(activityId), registered.count >= maxActivitiesPerDevice {
            errors.append(
                FieldError(
                    pointer: "", code: "too_many",
                    message: "at most \(maxActivitiesPerDevice) activities per device; remove ended ones first"))
        }
        var canonical = token
        switch DeviceTokenShape.canonical(token, platform: .apns) {
        case .valid(let text): canonical = text
        case .invalid(let error): errors.append(error.under("/token"))
        }
        return errors.isEmpty ? .success(canonical) : .failure(Refusal(errors: errors))
    }
}
