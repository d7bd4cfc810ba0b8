/// How the server answers a close frame from a client (RFC 6455 §5.5.1, §7.1.6, §7.4): a
/// well-formed one is echoed; a malformed one fails the connection with 1002 (protocol
/// error) or, when only its reason is not UTF-8, 1007 (invalid payload).
public enum CloseFrameAnswer: Equatable, Sendable {
    /// Well formed (possibly empty): echo it back, which libwebsockets does by itself.
    case echo
    /// Malformed: close with this status and reason instead.
    case fail(status: UInt16, reason: String)

    public static let protocolError: UInt16 = 1002
    public static let invalidPayload: UInt16 = 1007
    /// A control frame carries at most 125 bytes: the status code and 123 bytes of reason.
    public static let maxPayload = 125

    /// `payload` is the close frame's payload, unmasked: empty, or a big-endian status code
    /// followed by a UTF-8 reason.
    public init(payload: some Collection<UInt8>) {
        let bytes = Array(payload)
        guard !bytes.isEmpty else {
            self = .echo
            return
        }
        guard bytes.count <= Self.maxPayload else {
            self = .fail(status: Self.protocolError, reason: "close frame over \(Self.maxPayload) bytes")
            return
        }
        guard bytes.count >= 2 else {
            self = .fail(status: Self.protocolError, reason: "close frame with a 1-byte payload")
            return
        }
        let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard Self.isValid(code: code) else {
            self = .fail(status: Self.protocolError, reason: "invalid close code \(code)")
            return
        }
        guard String(validating: bytes.dropFirst(2), as: UTF8.self) != nil else {
            self = .fail(status: Self.invalidPayload, reason: "close reason is not UTF-8")
            return
        }
        self = .echo
    }

    /// Whether a peer may send `code` in a close frame: the codes RFC 6455 §7.4.1 defines for
    /// use on the wire (1000-1003, 1007-1011), those IANA registered since (1012-1014), and
    /// the ranges for libraries and applications (3000-4999). 1004-1006 and 1015 are reserved
    /// and never sent; 0-999, the rest of 1000-2999 and 5000 and up are not status codes.
    public static func isValid(code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
