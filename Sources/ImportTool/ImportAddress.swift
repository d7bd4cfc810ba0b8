import Foundation
import LayoutCore

/// What `forcelayout import` can tell before it connects, and what a refused connection
/// means, in words a person understands (rather than libwebsockets' "HS: ws upgrade response
/// not 101"). Pure.
public enum ImportAddress {
    /// The room a WebSocket path names (`/ws`: main, `/ws/NAME`: NAME, its `%xx` decoded as
    /// the server decodes them), or why it names none: for a mistyped name, the page's room
    /// switcher's sentence (`RoomNameCheck`: "Room names are lower case. Try “demo”.").
    public static func room(ofPath path: String) -> Result<RoomName, Refusal> {
        let bare = String(path.prefix { $0 != "?" && $0 != "#" })
        if bare == "/ws" { return .success(.main) }
        guard bare.hasPrefix("/ws/") else {
            return .failure(Refusal(description: "not a room's address: a forcelayout server's rooms are at /ws (room main) and /ws/NAME"))
        }
        let raw = String(bare.dropFirst("/ws/".count))
        let name = raw.removingPercentEncoding ?? raw
        switch RoomNameCheck(address: name) {
        case .valid(let room):
            return .success(room)
        case .invalid(let message, _):
            return .failure(Refusal(description: message))
        }
    }

    /// What to do about a room's access close (`AccessClose`), after its reason.
    public static func hint(closeStatus: UInt32) -> String {
        switch closeStatus {
        case AccessClose.notFound: "; the room does not exist, or it is private and needs one of its links (--key-file)"
        case AccessClose.forbidden: "; bring its edit link (--key-file)"
        case AccessClose.linkRotated: "; ask its owner for the new link"
        default: ""
        }
    }

    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Why the server at `url` did not open the WebSocket: `status` is the HTTP status it
    /// answered the upgrade with (0: none, `detail` says what libwebsockets saw).
    public static func refusal(status: Int, detail: String, url: String) -> String {
        switch status {
        case 0 where !detail.hasPrefix("HS:"):
            return "cannot connect to \(url): \(detail) (is a forcelayout server running there?)"
        case 0, 101:
            // libwebsockets' "HS: …": the handshake's answer was not a forcelayout server's.
            return "\(url) answered, but not as a forcelayout server does: is it one, of this version?"
        case 400:
            return "\(url) refused the connection (400): it speaks none of this import's protocols, so it is not a forcelayout server of this version"
        case 403:
            return "\(url) refused the connection (403): the server turns away this origin or host name"
        case 404:
            return "\(url) is not a room of a forcelayout server (404): is it one, and are its rooms at /ws/NAME?"
        case 429:
            return "\(url) refused the connection (429): this address made too many rooms lately; try again in a minute, or use a room that exists"
        case 503:
            return "\(url) refused the connection (503): the server is full, shutting down, or cannot read the room's file; try again later"
        case 200..<300, 300..<400:
            return "\(url) answered HTTP \(status) instead of opening a WebSocket: not a forcelayout server's room address"
        default:
            return "\(url) refused the connection (HTTP \(status)): is it a forcelayout server's room address?"
        }
    }
}
