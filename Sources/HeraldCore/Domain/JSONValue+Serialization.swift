/// Herald's own JSON writer: deterministic (keys sorted), compact, and always valid UTF-8 JSON, so payload sizes
/// measured here are exactly the bytes the platform receives.
extension JSONValue {
  /// The compact JSON text of the value, keys sorted by their UTF-8 bytes.
  public func serialized() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(into: &out)
    return out
  }

  /// The number of bytes `string` takes once escaped and quoted as a JSON string.
  public static func encodedLength(of string: String) -> Int {
    var length = 2
    for byte in string.utf8 {
      length += escapedWidth(byte)
    }
    return length
  }

  private static func escapedWidth(_ byte: UInt8) -> Int {
    switch byte {
    case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
    case 0x00..<0x20: return 6
    default: return 1
    }
  }

  private func write(into out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): out.append(contentsOf: String(value).utf8)
    case .double(let value): Self.writeDouble(value, into: &out)
    case .string(let value): Self.writeString(value, into: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.write(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      for (index, key) in keys.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        members[key, default: .null].write(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func writeDouble(_ value: Double, into out: inout [UInt8]) {
    // JSON has no NaN or infinity; null keeps the document valid.
    guard value.isFinite else {
      out.append(contentsOf: "null".utf8)
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      out.append(contentsOf: String(Int(value)).utf8)
    } else {
      out.append(contentsOf: "\(value)".utf8)
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func writeString(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0x00..<0x20:
        out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
