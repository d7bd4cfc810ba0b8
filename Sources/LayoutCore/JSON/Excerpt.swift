/// A short, printable excerpt of text a client sent, for error messages (which the server also
/// logs): in quotes, at most `limit` Unicode scalars, with quotes, backslashes and control
/// characters escaped as in JSON.
///
/// Counting scalars rather than Characters bounds the size whatever the text is made of (one
/// grapheme cluster can be kilobytes of combining marks), and escaping keeps a client from
/// ending a log line and forging the next one, or reordering it with bidirectional controls.
enum Excerpt {
    static func quoted(_ text: String, limit: Int = 32) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isUnprintable(scalar): result += escaped(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional controls.
    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: false)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
