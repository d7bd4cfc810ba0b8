import CHiredis

/// One reply of Redis (RESP2), copied out of hiredis's reply object.
enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case error(String)
    case integer(Int)
    case array([RedisReply])
    case null

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .string(Self.bytes(value.str, value.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(value.str, value.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(value.str, value.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] { elements.append(RedisReply(element)) } else { elements.append(.null) }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    var isOK: Bool { self == .status("OK") }

    /// An HGETALL's answer as field → value (fields or values that are not strings are left out).
    var fields: [String: [UInt8]] {
        guard case .array(let items) = self else { return [:] }
        var fields: [String: [UInt8]] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            if let name = items[index].text, let value = items[index + 1].bytes { fields[name] = value }
        }
        return fields
    }

    var errorMessage: String? {
        if case .error(let message) = self { return message }
        return nil
    }
}
