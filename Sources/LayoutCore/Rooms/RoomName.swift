/// A room's name: 1 to 40 of `a-z`, `0-9`, `-`, `_`, starting with a letter or a digit. The
/// name is part of addresses (`/r/NAME`, `/ws/NAME`) and of a state file's name
/// (`DIR/NAME.json`), so nothing else (no dot, no slash, no percent sign) is ever one.
public struct RoomName: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let main = RoomName(checked: "main")
    public static let maxLength = 40

    public let description: String

    private init(checked: String) { description = checked }

    /// Nil for anything that is not a room name, exactly as written (no decoding here).
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard (1...Self.maxLength).contains(bytes.count), let first = bytes.first,
              Self.isLetterOrDigit(first), bytes.allSatisfy({ Self.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        description = String(text)
    }

    public static func < (a: RoomName, b: RoomName) -> Bool { a.description < b.description }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
