internal import CICUShim

/// Owns one compiled ICU MessageFormat.
///
/// ICU's MessageFormat creates members lazily inside `const` methods without a lock, so a handle must never be used
/// by two threads at once: it is neither copyable nor `Sendable`, and shared use goes through a `Mutex`.
struct MessageHandle: ~Copyable {
    /// Why the facade refused to open a handle.
    struct OpenError: Error {
        let code: Int32
        let offset: Int32
        let icuErrorName: String

        var isUnknownTimeZone: Bool { code == HM_ERR_UNKNOWN_TIME_ZONE }

        func templateError(pattern: String) -> TemplateError {
            let code = TemplateError.Code(facadeCode: code)
            guard offset >= 0 else { return TemplateError(code, icuErrorName: icuErrorName) }
            return TemplateError(code, offset: Int(offset), in: pattern, icuErrorName: icuErrorName)
        }
    }

    /// What one format call produced.
    enum Outcome: Sendable {
        case text(String)
        case badValue(argumentIndex: Int)
        case failed(icuErrorName: String)
    }

    /// nil until opened; a cache slot starts empty and opens on first use.
    private(set) var pointer: OpaquePointer?

    /// An empty handle, opened later with `open`.
    init() { pointer = nil }

    /// Validates and compiles `pattern`; `timeZone` is an IANA id, or empty for none.
    init(pattern: String, locale: String, timeZone: String) throws(OpenError) {
        pointer = nil
        try open(pattern: pattern, locale: locale, timeZone: timeZone)
    }

    deinit {
        if let pointer { hm_message_close(pointer) }
    }

    /// Compiles into an empty handle.
    mutating func open(pattern: String, locale: String, timeZone: String) throws(OpenError) {
        var error = hm_error()
        var pattern = pattern
        var locale = locale
        var timeZone = timeZone
        let opened = pattern.withUTF8 { p in
            locale.withUTF8 { l in
                timeZone.withUTF8 { z in
                    p.withMemoryRebound(to: CChar.self) { p in
                        l.withMemoryRebound(to: CChar.self) { l in
                            z.withMemoryRebound(to: CChar.self) { z in
                                hm_message_open(
                                    p.baseAddress, Int32(p.count), l.baseAddress, Int32(l.count), z.baseAddress,
                                    Int32(z.count), &error)
                            }
                        }
                    }
                }
            }
        }
        guard let opened else {
            let name = withUnsafeBytes(of: error.icu_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw OpenError(code: error.code, offset: error.offset, icuErrorName: name)
        }
        if let pointer { hm_message_close(pointer) }
        pointer = opened
    }

    /// The argument table: every name, nested ones too, in order of first appearance.
    func arguments() -> [TemplateArgument] {
        guard let pointer else { return [] }
        let count = hm_message_argument_count(pointer)
        var table: [TemplateArgument] = []
        table.reserveCapacity(Int(count))
        var info = hm_argument_info()
        for index in 0..<count where hm_message_argument_at(pointer, index, &info) {
            let name = String(
                decoding: UnsafeRawBufferPointer(start: info.name, count: Int(info.name_len)), as: UTF8.self)
            table.append(
                TemplateArgument(
                    name: name, kind: ArgumentKind(facadeKind: info.kind), isNested: info.nested,
                    acceptedValues: info.accepts))
        }
        return table
    }
}
