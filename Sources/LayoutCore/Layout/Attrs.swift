/// A cell's or a link's other attributes in the user's data (a networkx node's `club`, an
/// edge's `weight`): a JSON object kept as its canonical encoding (`JSONWriter.value`: no
/// white space, members in the order given, numbers as the wire writes them), at most
/// `limits.maxAttrBytes` bytes, nested at most `depthLimit` deep (the object itself is 1),
/// numbers finite. The server never reads it: it is stored, sent and exported as given. An
/// empty object is no attributes.
public struct Attrs: Hashable, Sendable {
    /// `{"club":"Mr. Hi",…}`.
    public let bytes: [UInt8]

    public static let depthLimit = 8

    /// A problem with a value sent as attrs: `limit` when only its size is too big.
    package struct Problem: Error {
        package let why: String
        package let tooBig: Bool
    }

    /// The attributes `value` holds (nil: an empty object), or why it cannot be them.
    package static func make(_ value: JSONValue, maxBytes: Int) -> Result<Attrs?, Problem> {
        guard case .object(let members) = value else {
            return .failure(Problem(why: "must be an object, not \(value.typeName)", tooBig: false))
        }
        if let why = problem(value, depth: 1) { return .failure(Problem(why: why, tooBig: false)) }
        guard !members.isEmpty else { return .success(nil) }
        var writer = JSONWriter(reservingCapacity: 64)
        writer.value(value)
        guard writer.bytes.count <= maxBytes else {
            return .failure(Problem(why: "is \(writer.bytes.count) bytes encoded, over maxAttrBytes (\(maxBytes))", tooBig: true))
        }
        return .success(Attrs(bytes: writer.bytes))
    }

    /// Bytes known to be canonical (from `make`, or read back from them).
    init(bytes: [UInt8]) { self.bytes = bytes }

    private static func problem(_ value: JSONValue, depth: Int) -> String? {
        switch value {
        case .number(let number): return number.isFinite ? nil : "must hold finite numbers only"
        case .array(let elements):
            guard depth <= depthLimit else { return "must be nested at most \(depthLimit) deep" }
            for element in elements { if let why = problem(element, depth: depth + 1) { return why } }
            return nil
        case .object(let members):
            guard depth <= depthLimit else { return "must be nested at most \(depthLimit) deep" }
            for member in members { if let why = problem(member.value, depth: depth + 1) { return why } }
            return nil
        case .null, .bool, .string: return nil
        }
    }

    /// The members, parsed again (the bytes are valid JSON by construction).
    public var members: [(key: String, value: JSONValue)] {
        guard case .object(let members)? = try? JSONParser.parse(bytes, maxDepth: Self.depthLimit + 1) else { return [] }
        return members
    }

    public var json: JSONValue { .object(members) }
}

extension JSONWriter {
    /// Any JSON value, canonically: no white space, members in order, numbers as `number` writes them.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements): array(elements) { $0.value($1) }
        case .object(let members):
            raw(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { raw(UInt8(ascii: ",")) }
                string(member.key)
                raw(UInt8(ascii: ":"))
                self.value(member.value)
            }
            raw(UInt8(ascii: "}"))
        }
    }

    mutating func attrs(_ attrs: Attrs) { raw(attrs.bytes) }
}
