/// A rejected client message, as sent back in an `error` message.
public struct ProtocolError: Error, Equatable, Sendable {
    public enum Code: String, Sendable, CaseIterable {
        case badJSON = "bad_json"
        case unknownType = "unknown_type"
        case badRequest = "bad_request"
        case limit = "limit"
        case rateLimited = "rate_limited"
        /// The server cannot do it now (an add needs ids reserved in the state file, and
        /// writing it failed).
        case unavailable = "unavailable"
        /// In a cluster: the room is stepped by another server, and this one cannot reach
        /// Redis; the message was not delivered.
        case clusterUnavailable = "cluster_unavailable"
        /// The connection's role may not send it: a viewer's change, or a change to the room's
        /// access by anyone but its owner.
        case forbidden = "forbidden"
        /// An `undo` the room's state refuses: nothing of the client's is left to undo, someone
        /// else built on its last change since, or the cells it needs are gone.
        case conflict = "conflict"
    }

    public var code: Code
    public var message: String
    public var ref: String?

    public init(_ code: Code, _ message: String, ref: String? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
    }
}
