import Foundation

/// A name someone typed (or put in an address), checked as the page's room switcher checks it
/// (Public/room.js `checkRoomName`, `suggestRoomName`): valid as typed (blanks around it
/// dropped), or what is wrong in one sentence and the valid name probably meant ("Room names
/// are lower case. Try “demo”."). The wording is the page's: Tests/fixtures/room-names.json
/// holds the cases both sides assert. For the 404 page of a mistyped `/r/NAME` and
/// `forcelayout import`'s `--url`.
public enum RoomNameCheck: Equatable, Sendable {
    case valid(RoomName)
    /// `message`: one or two sentences; `suggestion`: a valid name, when there is one.
    case invalid(message: String, suggestion: RoomName?)

    public init(_ typed: String) {
        let name = Self.trimmed(typed)
        if name.isEmpty {
            self = .invalid(message: "Type a room name.", suggestion: nil)
            return
        }
        if let valid = RoomName(name) {
            self = .valid(valid)
            return
        }
        let suggestion = Self.suggestion(for: name)
        let problem = Self.whatIsWrong(name)
        self = .invalid(message: suggestion.map { "\(problem). Try \u{201C}\($0)\u{201D}." } ?? "\(problem).", suggestion: suggestion)
    }

    /// A name in an address (`/r/NAME`, `/ws/NAME`), where nothing is trimmed: as typed, except
    /// that a valid name with blanks around it is told so ("Room names have no blanks. Try
    /// “demo”.").
    public init(address typed: String) {
        switch RoomNameCheck(typed) {
        case .valid(let name) where name.description != typed:
            self = .invalid(message: "Room names have no blanks. Try \u{201C}\(name)\u{201D}.", suggestion: name)
        case let checked:
            self = checked
        }
    }

    /// The first thing wrong with an invalid name, as the start of a sentence.
    private static func whatIsWrong(_ name: String) -> String {
        let scalars = name.unicodeScalars
        if scalars.contains(where: { !(isLower($0) || isUpper($0) || isDigit($0) || $0 == "_" || $0 == "-") }) {
            return "Use only a\u{2013}z, 0\u{2013}9, - and _ (no spaces)"
        }
        if scalars.contains(where: isUpper) { return "Room names are lower case" }
        if let first = scalars.first, !(isLower(first) || isDigit(first)) { return "Start with a letter or a digit" }
        return "At most \(RoomName.maxLength) characters"
    }

    /// The valid name closest to `text`, or nil: lower case, accents dropped (compatibility
    /// decomposition, combining marks U+0300–U+036F removed), every run of other signs one
    /// '-', no '-' or '_' in front, at most 40 characters, no '-' at the end.
    public static func suggestion(for text: String) -> RoomName? {
        let decomposed = text.decomposedStringWithCompatibilityMapping.unicodeScalars
            .filter { !(0x300...0x36F).contains($0.value) }
        let lowered = String(String.UnicodeScalarView(decomposed)).lowercased()
        var name = ""
        var inRun = false
        for scalar in lowered.unicodeScalars {
            if isLower(scalar) || isDigit(scalar) || scalar == "_" || scalar == "-" {
                name.unicodeScalars.append(scalar)
                inRun = false
            } else if !inRun {
                name += "-"
                inRun = true
            }
        }
        var trimmed = Substring(name).drop(while: { $0 == "-" || $0 == "_" }).prefix(RoomName.maxLength)
        while trimmed.last == "-" { trimmed = trimmed.dropLast() }
        return RoomName(trimmed)
    }

    /// JavaScript's `trim`: white space and line terminators at either end.
    private static func trimmed(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let isBlank = { (scalar: Unicode.Scalar) in
            scalar.properties.generalCategory == .spaceSeparator
                || [0x9, 0xA, 0xB, 0xC, 0xD, 0xFEFF, 0x2028, 0x2029].contains(scalar.value)
        }
        guard let start = scalars.firstIndex(where: { !isBlank($0) }), let end = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }

    private static func isLower(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) }
    private static func isUpper(_ s: Unicode.Scalar) -> Bool { ("A"..."Z").contains(s) }
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
}
