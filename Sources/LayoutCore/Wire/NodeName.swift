/// A server's name in a cluster (`serve --node`): it ends every client id handed out there
/// (`c12@NAME`) and appears in Redis keys, so it is spelt as room names are.
public enum NodeName {
    /// 1 to 32 of `a-z`, `0-9`, `-`, `_`.
    public static func isValid(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
}
