
/// An edge list's records and fields, read from its bytes as RFC 4180 says, leniently: a field
/// that starts with `"` is quoted (it may hold the separator and line breaks, and `""` in it is
/// one `"`); a `"` anywhere else is kept as it is. Each record's separator is a tab if its first
/// line has one, else a comma if it has one, else runs of spaces. Fields are trimmed of blanks;
/// blank lines and lines that start with `#` (comments, read no further) are left out. `Public/graphfile.js` (`recordsOf`) reads the same, and
/// the golden graph files in `Tests/fixtures/graphs/` hold the two to it.
enum DelimitedText {
    private static let quote = UInt8(ascii: "\""), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","),
                       space = UInt8(ascii: " "), lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D

    static func records(_ text: String) -> [[String]] {
        let bytes = Array(text.utf8)
        var records: [[String]] = []
        var index = 0
        while index < bytes.count {
            if isSkipped(bytes, from: index) {
                index = lineEnd(bytes, at: bytes[index...].firstIndex { $0 == lineFeed || $0 == carriageReturn } ?? bytes.count)
                continue
            }
            let (fields, next) = record(bytes, from: index)
            records.append(fields)
            index = next
        }
        return records
    }

    /// The record from `start`: its fields and where the next one starts.
    private static func record(_ bytes: [UInt8], from start: Int) -> (fields: [String], next: Int) {
        let separator = separator(bytes, from: start)
        var fields: [String] = []
        var index = start
        while true {
            let (text, end) = field(bytes, from: index, separator: separator)
            index = end
            let last = index >= bytes.count || bytes[index] == lineFeed || bytes[index] == carriageReturn
            if !(separator == space && text.isEmpty) { fields.append(text) }
            if last { return (fields, lineEnd(bytes, at: index)) }
            index += 1
        }
    }

    /// Whether the line from `start` is blank or starts with `#` after blanks (a comment).
    private static func isSkipped(_ bytes: [UInt8], from start: Int) -> Bool {
        let first = bytes[start...].first { !isBlank($0) }
        return first == nil || first == UInt8(ascii: "#") || first == lineFeed || first == carriageReturn
    }

    /// Tab if the record from `start` has one in its first line (a quoted field's line breaks
    /// do not end it), else comma if it has one, else space.
    private static func separator(_ bytes: [UInt8], from start: Int) -> UInt8 {
        var sawComma = false, quoted = false, previous = lineFeed
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                if quoted, index + 1 < bytes.count, bytes[index + 1] == quote {
                    index += 1  // "" inside a quoted field
                } else if quoted || previous == comma || previous == tab || previous == lineFeed || isBlank(previous) {
                    quoted.toggle()
                }
            } else if (byte == lineFeed || byte == carriageReturn) && !quoted {
                break
            }
            if byte == tab { return tab }
            if byte == comma { sawComma = true }
            previous = byte
            index += 1
        }
        return sawComma ? comma : space
    }

    /// One field from `start`, trimmed: its text and the index of the separator or line break
    /// after it (or the end).
    private static func field(_ bytes: [UInt8], from start: Int, separator: UInt8) -> (String, Int) {
        var index = start
        while index < bytes.count, bytes[index] != separator, isBlank(bytes[index]) { index += 1 }
        var text: [UInt8] = []
        if index < bytes.count, bytes[index] == quote {
            index += 1
            while index < bytes.count {
                if bytes[index] == quote {
                    guard index + 1 < bytes.count, bytes[index + 1] == quote else { index += 1; break }
                    index += 1
                }
                text.append(bytes[index])
                index += 1
            }
        }
        while index < bytes.count, bytes[index] != separator, bytes[index] != lineFeed, bytes[index] != carriageReturn {
            text.append(bytes[index])
            index += 1
        }
        return (String(decoding: trimmed(text), as: UTF8.self), index)
    }

    /// Past the line break at `index` (\n, \r\n or \r), if there is one.
    private static func lineEnd(_ bytes: [UInt8], at index: Int) -> Int {
        guard index < bytes.count else { return index }
        if bytes[index] == carriageReturn, index + 1 < bytes.count, bytes[index + 1] == lineFeed { return index + 2 }
        return index + 1
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == 0x0B || byte == 0x0C }

    private static func trimmed(_ text: [UInt8]) -> ArraySlice<UInt8> {
        var lower = text.startIndex, upper = text.endIndex
        while lower < upper, isBlank(text[lower]) { lower += 1 }
        while upper > lower, isBlank(text[upper - 1]) { upper -= 1 }
        return text[lower..<upper]
    }
}
