/// The page a mistyped room address gets (`GET /r/Demo`, or anything under `/r/` that is
/// neither a room name nor a file of `Public/`): 404 with a small HTML page saying what is
/// wrong in the room switcher's words (`RoomNameCheck`) and linking to the valid name meant,
/// when there is one. What it echoes of the address is escaped and cut to 100 characters.
/// Plain HTML: the server's Content-Security-Policy allows no inline style or script.
public enum MistypedRoomPage {
    public static let contentType = "text/html; charset=utf-8"
    static let echoLimit = 100

    /// `typed`: what follows `/r/` in the (decoded) path.
    public static func html(typed: String) -> [UInt8] {
        let (message, suggestion): (String, RoomName?)
        switch RoomNameCheck(address: typed) {
        case .invalid(let text, let name):
            (message, suggestion) = (text, name)
        case .valid(let name):
            // Not reached: a room name under /r/ is the room's page.
            (message, suggestion) = ("Try \u{201C}\(name)\u{201D}.", name)
        }
        var shown = String(String.UnicodeScalarView(typed.unicodeScalars.prefix(echoLimit)))
        if typed.unicodeScalars.count > echoLimit { shown += "\u{2026}" }
        var body = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        body += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        body += "<title>No room at this address \u{00B7} forcelayout</title>\n"
        body += "</head>\n<body>\n<h1>No room at <code>/r/\(escaped(shown))</code></h1>\n"
        body += "<p id=\"why\">\(linked(message, suggestion))</p>\n"
        body += "<p>Room names are 1 to \(RoomName.maxLength) of a\u{2013}z, 0\u{2013}9, - and _, starting with a letter or a digit. <a href=\"/\">Room main</a></p>\n"
        body += "</body>\n</html>\n"
        return Array(body.utf8)
    }

    /// The room's address: `/` for main (the address it always had), `/r/NAME` otherwise.
    static func path(of room: RoomName) -> String { room == .main ? "/" : "/r/\(room)" }

    /// `message`, escaped, with its quoted suggestion a link to that room.
    private static func linked(_ message: String, _ suggestion: RoomName?) -> String {
        guard let suggestion, let quoted = message.range(of: "\u{201C}\(suggestion)\u{201D}") else { return escaped(message) }
        return escaped(String(message[..<quoted.lowerBound]))
            + "<a href=\"\(escaped(path(of: suggestion)))\">\(escaped(String(message[quoted])))</a>"
            + escaped(String(message[quoted.upperBound...]))
    }

    /// Text for HTML content and attribute values; control characters shown as U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{FFFE}" || scalar == "\u{FFFF}" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
