/// A WebSocket connection's life, from the moment it is a WebSocket to its close: waiting for
/// its room (a cluster's room being claimed or mirrored, a room file being read), open,
/// closing (a close asked for, waiting for its write), close frame sent, closed. A value with
/// transitions that say what the libwebsockets glue must do (`Server+Sessions`,
/// `Server+Messages`, `Server+CloseFrames`); it touches no socket, so every path is tested
/// without one (`ConnectionLifeTests`).
package struct ConnectionLife: Equatable {
    /// A close asked for: its status and reason, and whether what is queued goes first.
    package struct CloseRequest: Equatable {
        let status: UInt32
        let reason: String
        /// The answers already queued are written first (within the grace).
        let afterQueued: Bool

        package init(status: UInt32, reason: String, afterQueued: Bool) {
            self.status = status
            self.reason = reason
            self.afterQueued = afterQueued
        }
    }

    package enum State: Equatable {
        /// Connected to a room that is not ready; nothing may be written before `hello`.
        case awaitingRoom(since: Double)
        case open
        /// A close waits for the connection's next write. `greeted`: it had its `hello`.
        case closing(CloseRequest, greeted: Bool)
        /// Our close frame is handed to libwebsockets: nothing more is written.
        case closeSent(greeted: Bool)
        case closed
    }

    private(set) var state: State

    /// A connection to a room that is ready is open at once; to one that is not, it waits (`since`: now).
    package init(roomReady: Bool, now: Double) {
        state = roomReady ? .open : .awaitingRoom(since: now)
    }

    /// When it started waiting for its room; nil once greeted (or never waiting).
    package var awaitingSince: Double? {
        if case .awaitingRoom(let since) = state { return since }
        return nil
    }

    /// Whether it had its `hello` (its room and the others heard of it).
    package var isGreeted: Bool {
        switch state {
        case .open: true
        case .awaitingRoom, .closed: false
        case .closing(_, let greeted), .closeSent(let greeted): greeted
        }
    }

    /// A close was asked for or sent: nothing it sends is answered any more.
    package var isClosing: Bool {
        switch state {
        case .closing, .closeSent, .closed: true
        case .awaitingRoom, .open: false
        }
    }

    /// The close waiting for a write, if any.
    package var closeRequest: CloseRequest? {
        if case .closing(let request, _) = state { return request }
        return nil
    }

    /// Whether it is waiting for its room and may be greeted now (also when a close was asked
    /// for meanwhile: the close then follows its `hello`).
    package var mayBeGreeted: Bool {
        switch state {
        case .awaitingRoom, .closing(_, greeted: false): true
        case .open, .closing, .closeSent, .closed: false
        }
    }

    /// Its room is ready and it gets `hello`: true if it was waiting (the glue greets it).
    package mutating func greet() -> Bool {
        switch state {
        case .awaitingRoom:
            state = .open
        case .closing(let request, greeted: false):
            state = .closing(request, greeted: true)
        case .open, .closing, .closeSent, .closed:
            return false
        }
        return true
    }

    /// What asking for a close makes the glue do.
    package enum CloseAction: Equatable {
        /// Arm the grace timeout and ask for a write, at which the close goes.
        case armAndWake
        /// Its close frame is already out (or it is gone): nothing.
        case ignore
    }

    /// A close is asked for (a later request replaces one still waiting).
    package mutating func requestClose(_ request: CloseRequest) -> CloseAction {
        switch state {
        case .awaitingRoom:
            state = .closing(request, greeted: false)
        case .open:
            state = .closing(request, greeted: true)
        case .closing(_, let greeted):
            state = .closing(request, greeted: greeted)
        case .closeSent, .closed:
            return .ignore
        }
        return .armAndWake
    }

    /// What the connection writes when libwebsockets says it may (`mailboxEmpty`: nothing is
    /// queued for it).
    package enum WriteStep: Equatable {
        /// Nothing now.
        case nothing
        /// What is queued first, then the newest frame it has not had.
        case queuedThenFrame
        /// Only what is queued (a close waits behind it).
        case queuedOnly
        /// The close frame: set it up and return -1 (`closeFrameSent` has been recorded).
        case close(status: UInt32, reason: String)
    }

    package mutating func writable(mailboxEmpty: Bool) -> WriteStep {
        switch state {
        case .awaitingRoom, .closeSent, .closed:
            return .nothing
        case .open:
            return .queuedThenFrame
        case .closing(let request, let greeted):
            guard !request.afterQueued || mailboxEmpty else { return .queuedOnly }
            state = .closeSent(greeted: greeted)
            return .close(status: request.status, reason: request.reason)
        }
    }

    /// A close frame of ours goes now, not at a write (a client's bad close frame is answered).
    mutating func closeFrameSent() {
        switch state {
        case .awaitingRoom: state = .closeSent(greeted: false)
        case .open: state = .closeSent(greeted: true)
        case .closing(_, let greeted): state = .closeSent(greeted: greeted)
        case .closeSent, .closed: break
        }
    }

    /// What the glue answers a client's close frame with.
    package enum PeerCloseAnswer: Equatable {
        /// Let libwebsockets echo it (return 0).
        case echo
        /// Close with this instead (return -1).
        case close(status: UInt32, reason: String)
    }

    /// The client sent a close frame; `bad`: the status and reason of its answer when the
    /// frame is not a valid one (`CloseFrameAnswer`).
    package mutating func peerClosed(bad: (status: UInt32, reason: String)?) -> PeerCloseAnswer {
        // Our own close frame may still be waiting for the socket: closing again would make
        // lws hang up without any close frame; its echo at least tells the client we closed.
        switch state {
        case .closeSent, .closed: return .echo
        case .awaitingRoom, .open, .closing: break
        }
        if let bad {
            closeFrameSent()
            return .close(status: bad.status, reason: bad.reason)
        }
        // A close of our own was waiting for a write: it answers instead of the echo.
        if let request = closeRequest {
            closeFrameSent()
            return .close(status: request.status, reason: request.reason)
        }
        return .echo
    }

    /// The connection is gone; returns whether it had been greeted (else nobody heard of it).
    package mutating func closed() -> Bool {
        let greeted = isGreeted
        state = .closed
        return greeted
    }
}
