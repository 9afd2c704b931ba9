internal import CICUShim

extension MessageHandle {
    /// Output up to this many UTF-8 bytes is formatted into a stack buffer; longer output is formatted again.
    private static let stackOutputBytes = 1024

    /// Formats with the values of `arguments` (this handle's table) looked up in `values`.
    ///
    /// Arguments without a usable value are listed; in strict mode ICU is then not called at all, otherwise they are
    /// left out so ICU prints them as `{name}`.
    func format(_ arguments: [TemplateArgument], _ values: [String: MessageValue], strict: Bool) -> FormatResult {
        let count = arguments.count
        return withUnsafeTemporaryAllocation(of: MessageValue?.self, capacity: max(count, 1)) { found in
            var missing: [String] = []
            var mismatched: [String] = []
            var blobBytes = 0
            for (index, argument) in arguments.enumerated() {
                var usable: MessageValue?
                if let value = values[argument.name] {
                    usable = argument.coerced(value)
                    if usable == nil { mismatched.append(argument.name) }
                } else {
                    missing.append(argument.name)
                }
                if case .string(let text)? = usable { blobBytes += text.utf8.count }
                found.initializeElement(at: index, to: usable)
            }
            defer { found.baseAddress!.deinitialize(count: count) }
            let complete = missing.isEmpty && mismatched.isEmpty
            let outcome = strict && !complete ? nil : format(found.prefix(count), blobBytes: blobBytes)
            return FormatResult(outcome: outcome, missing: missing, mismatched: mismatched, arguments: arguments)
        }
    }

    /// Formats `values`, one per argument in table order; nil leaves an argument out.
    private func format(_ values: UnsafeMutableBufferPointer<MessageValue?>.SubSequence, blobBytes: Int) -> Outcome {
        guard let pointer else { return .failed(icuErrorName: "closed handle") }
        // Every string value goes into one scratch blob, so a single pointer covers them all.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(blobBytes, 1)) { blob in
            withUnsafeTemporaryAllocation(of: hm_value.self, capacity: max(values.count, 1)) { slots in
                var used = 0
                for (index, value) in zip(0..., values) {
                    var slot = hm_value()
                    if let value {
                        slot.kind = value.facadeKind
                        switch value {
                        case .string(let text):
                            let count = Self.copyUTF8(of: text, into: blob, at: used)
                            slot.str_off = Int32(used)
                            slot.str_len = Int32(count)
                            used += count
                        case .int(let number):
                            slot.i64 = Int64(number)
                        case .double(let number):
                            slot.f64 = number
                        case .date(let instant):
                            slot.f64 = instant.timeIntervalSince1970 * 1000  // ICU's UDate: milliseconds
                        }
                    }
                    slots.initializeElement(at: index, to: slot)
                }
                let blobText = UnsafeRawPointer(blob.baseAddress!).assumingMemoryBound(to: CChar.self)
                return Self.run(pointer, blob: blobText, values: slots.baseAddress!, count: Int32(values.count))
            }
        }
    }

    private static func copyUTF8(of text: String, into blob: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var text = text
        return text.withUTF8 { source in
            guard let start = source.baseAddress, source.count > 0 else { return 0 }
            (blob.baseAddress! + offset).update(from: start, count: source.count)
            return source.count
        }
    }

    private static func run(
        _ pointer: OpaquePointer, blob: UnsafePointer<CChar>, values: UnsafePointer<hm_value>, count: Int32
    ) -> Outcome {
        var error = hm_error()
        let capacity = stackOutputBytes
        let first = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { out -> FirstAttempt in
            let length = hm_message_format(pointer, blob, values, count, out.baseAddress, Int32(capacity), &error)
            guard length >= 0 else { return .failed }
            guard Int(length) <= capacity else { return .needs(Int(length)) }
            let bytes = UnsafeRawBufferPointer(start: out.baseAddress, count: Int(length))
            return .text(String(decoding: bytes, as: UTF8.self))
        }
        switch first {
        case .text(let text):
            return .text(text)
        case .failed:
            return outcome(of: error)
        case .needs(let length):
            var failed = false
            let text = String(unsafeUninitializedCapacity: length) { buffer in
                let written = buffer.withMemoryRebound(to: CChar.self) { out in
                    hm_message_format(pointer, blob, values, count, out.baseAddress, Int32(length), &error)
                }
                failed = written != Int32(length)
                return failed ? 0 : length
            }
            return failed ? outcome(of: error) : .text(text)
        }
    }

    private enum FirstAttempt {
        case text(String)
        case needs(Int)
        case failed
    }

    private static func outcome(of error: hm_error) -> Outcome {
        if error.code == HM_ERR_BAD_ARGUMENT_VALUE { return .badValue(argumentIndex: Int(error.argument)) }
        let name = withUnsafeBytes(of: error.icu_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .failed(icuErrorName: name)
    }
}
