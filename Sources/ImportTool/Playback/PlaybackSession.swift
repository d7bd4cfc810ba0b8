import ForceLayout
import LayoutCore

/// Plays a `Recording` into a room, as `forcelayout import FILE.flhistory` does: once the room's
/// `hello` (its parameters, limits) and first frame (how many cells it holds) are in, the plan
/// (`PlaybackPlan`) is sent message by message at the recording's pace (`speed` times it; 0: as
/// fast as the server's rate allows), up to `window` messages in flight. Each is answered by its
/// event (by this connection's client, in the order sent) or refused by an error naming its ref
/// (`play-N`); an `added` gives the room's ids of the cells it added, and a message naming cells
/// goes only once every one of them has the room's id. A room that holds cells is refused unless
/// `replace` (then it is cleared first). The playback does not outlive its connection: a room
/// that moves (`failover`) or a connection that ends stops it, saying how far it went. No I/O.
public struct PlaybackSession: RoomDriver {
    public struct Summary: Equatable, Sendable {
        /// Messages sent and answered, events and keyframes of the recording.
        public var messages = 0
        public var events = 0
        public var keyframes = 0
        /// The recording's duration (ms).
        public var duration = 0
        /// What did not go as recorded: the server's refusals, a cut tail.
        public var notes: [String] = []
    }

    enum Phase: Equatable, Sendable {
        case connecting
        /// The hello came: waiting for the first frame's cell count.
        case greeted
        /// `replace`: the room's `clear` is in flight.
        case clearing
        case playing
        case done
    }

    /// Seconds the oldest message in flight may go unanswered before the playback gives up.
    public static let answerTimeout = 20.0
    static let clearRef = "play-clear"

    let recording: Recording
    let speed: Double
    let replace: Bool
    let windowSize: Int
    private(set) var phase = Phase.connecting
    private var client = ""
    private var limits = Limits()
    private var roomParameters = Parameters()
    private(set) var plan: PlaybackPlan?
    /// The next message of the plan to send.
    private(set) var next = 0
    /// Messages sent and not answered yet, oldest first: their index in the plan and ref.
    private var window: [(index: Int, ref: String)] = []
    /// The room's id of each of the recording's cells that is in the room.
    private(set) var ids: [CellID: CellID] = [:]
    /// When playing began, the clock now, and when the oldest message in flight was sent.
    private var started: Double?
    private var now = 0.0
    private var waitingSince: Double?
    private var refusals: [String] = []

    /// `speed`: the recording's pace times this (0: no pauses).
    public init(recording: Recording, speed: Double = 1, replace: Bool = false, window: Int = ImportSession.defaultWindow) {
        self.recording = recording
        self.speed = max(0, speed)
        self.replace = replace
        windowSize = max(1, window)
    }

    public var connecting: Bool { phase == .connecting }
    public var progress: (done: Int, total: Int) { (next - window.count, plan?.messages.count ?? 0) }
    public var messagesPerSecond: Double { limits.messagesPerSecond }
    public var messageBurst: Double { limits.messageBurst }

    public mutating func received(_ message: JSONValue) -> SessionAction<Summary> {
        guard case .string(let type)? = message["type"] else { return .wait }
        switch (phase, type) {
        case (.connecting, "hello"):
            guard case .string(let id)? = message["client"] else { return .failed("the server's hello names no client") }
            if case .string("viewer")? = message["role"] {
                return .failed("the room is view only to this playback: give it the room's edit link (--key-file FILE, or $FORCELAYOUT_KEY)")
            }
            guard let object = message["params"], let parameters = StateFile.parameters(of: object) else {
                return .failed("the server's hello has no parameters this playback can read")
            }
            client = id
            limits = ImportSession.limits(message["limits"])
            roomParameters = parameters
            phase = .greeted
            return .wait
        case (.clearing, "event"):
            guard case .string("cleared")? = message["kind"], case .string(client)? = message["by"] else { return .wait }
            return play()
        case (.clearing, "error"):
            guard case .string(Self.clearRef)? = message["ref"] else { return .wait }
            return .failed("the server refused to clear the room: \(Self.text(message))")
        case (.playing, "event"):
            return answered(message)
        case (.playing, "error"):
            return refused(message)
        default:
            return .wait
        }
    }

    /// The first frame says how many cells the room holds: none, or `replace`, and the playback
    /// begins.
    public mutating func receivedFrame(cells: Int) -> SessionAction<Summary> {
        guard phase == .greeted else { return .wait }
        guard cells > 0 else { return play() }
        guard replace else {
            phase = .done
            return .failed("the room holds \(cells) cell(s): a recording is played into an empty room (or give --replace to clear it first)")
        }
        phase = .clearing
        waitingSince = now
        return .send([ClientRequest(.layout(.clear), ref: Self.clearRef).encoded])
    }

    public mutating func tick(now: Double) -> SessionAction<Summary> {
        self.now = now
        if let since = waitingSince, now - since >= Self.answerTimeout {
            return .failed("no answer from the server for \(Int(Self.answerTimeout)) s: the playback stopped at message \(next - window.count) of \(plan?.messages.count ?? 0)")
        }
        guard phase == .playing else { return .wait }
        return pump()
    }

    public mutating func connectionLost(now: Double) -> SessionAction<Summary> {
        guard phase != .done else { return .wait }
        return .failed("the connection ended during the playback, at message \(next - window.count) of \(plan?.messages.count ?? 0)")
    }

    /// The room is ready (empty, paused by the plan's first message): the plan is made and sent.
    private mutating func play() -> SessionAction<Summary> {
        phase = .playing
        waitingSince = nil
        plan = PlaybackPlan(recording, roomParameters: roomParameters, limits: limits)
        return pump()
    }

    /// The messages that may go now: due at the recording's pace, their cells all in the room,
    /// while the window has room; or the end.
    private mutating func pump() -> SessionAction<Summary> {
        guard let plan else { return .wait }
        if started == nil { started = now }
        let elapsed = speed == 0 ? Double.infinity : (now - started!) * 1000 * speed
        var messages: [[UInt8]] = []
        while window.count < windowSize, next < plan.messages.count {
            let message = plan.messages[next]
            guard Double(message.offset) <= elapsed, let command = mapped(message.command) else { break }
            let ref = "play-\(next + 1)"
            messages.append(ClientRequest(.layout(command), ref: ref).encoded)
            if window.isEmpty { waitingSince = now }
            window.append((next, ref))
            forget(message.command)
            next += 1
        }
        if !messages.isEmpty { return .send(messages) }
        guard window.isEmpty, next == plan.messages.count else { return .wait }
        phase = .done
        return .finished(summary)
    }

    /// The event answering the oldest message in flight (one by this client of the kind it
    /// waits for; others' events and the server's own are not answers).
    private mutating func answered(_ message: JSONValue) -> SessionAction<Summary> {
        guard let plan, let oldest = window.first, case .string(client)? = message["by"],
              case .string(let name)? = message["kind"], let kind = EventKind(rawValue: name),
              kind == plan.messages[oldest.index].answer else { return .wait }
        let sent = plan.messages[oldest.index]
        if kind == .added {
            guard case .array(let added)? = message["ids"], added.count == sent.adds.count else {
                return .failed("the room's added names \(Self.count(message["ids"])) cells for the \(sent.adds.count) sent")
            }
            for (recorded, id) in zip(sent.adds, added) { ids[recorded] = Fields.positiveInteger(id) }
        }
        window.removeFirst()
        waitingSince = window.isEmpty ? nil : now
        return pump()
    }

    /// The server refused a message in flight (by its ref): cells it did not add end the
    /// playback (what comes after names them); anything else is noted and the playback goes on.
    private mutating func refused(_ message: JSONValue) -> SessionAction<Summary> {
        guard let plan, case .string(let ref)? = message["ref"],
              let position = window.firstIndex(where: { $0.ref == ref }) else { return .wait }
        let sent = plan.messages[window.remove(at: position).index]
        waitingSince = window.isEmpty ? nil : now
        let why = Self.text(message)
        if sent.answer == .added { return .failed("the server refused \(sent.adds.count) cell(s) of the recording: \(why)") }
        refusals.append("\(ClientMessage.layout(sent.command).kindName) refused by the server: \(why)")
        return pump()
    }

    /// `command` with the room's ids for the recording's; nil while a cell it names has none yet
    /// (its `added` has not come).
    func mapped(_ command: LayoutCommand) -> LayoutCommand? {
        func id(_ recorded: CellID) -> CellID? { ids[recorded] }
        switch command {
        case .update(let edits):
            var out = edits
            for index in out.indices {
                guard let room = id(out[index].id) else { return nil }
                out[index].id = room
            }
            return .update(out)
        case .link(let records):
            var out = records
            for index in out.indices {
                guard let source = id(out[index].link.source), let target = id(out[index].link.target) else { return nil }
                (out[index].link.source, out[index].link.target) = (source, target)
            }
            return .link(out)
        case .unlink(let ends):
            var out: [LinkEnds] = []
            for end in ends {
                guard let source = id(end.source), let target = id(end.target) else { return nil }
                out.append(LinkEnds(source: source, target: target))
            }
            return .unlink(out)
        case .remove(let recorded):
            var out: [CellID] = []
            for cell in recorded {
                guard let room = id(cell) else { return nil }
                out.append(room)
            }
            return .remove(ids: out)
        case .pin(let cell, let x, let y, let drag):
            return id(cell).map { .pin(id: $0, x: x, y: y, drag: drag) }
        case .unpin(let cell):
            return id(cell).map { .unpin(id: $0) }
        default:
            return command
        }
    }

    /// Cells a message takes out of the room lose their room ids as it goes: a later add of the
    /// same recorded id (a restore brings cells back) waits for its own answer.
    private mutating func forget(_ command: LayoutCommand) {
        switch command {
        case .remove(let recorded): for cell in recorded { ids[cell] = nil }
        case .clear: ids = [:]
        default: break
        }
    }

    public var summary: Summary {
        let counts = recording.counts
        var notes: [String] = []
        if recording.cutBytes > 0 {
            notes.append("the file's last \(recording.cutBytes) bytes are not whole records (cut while it was written?): what came before them was played")
        }
        return Summary(messages: next - window.count, events: counts.events, keyframes: counts.keyframes,
                       duration: plan?.duration ?? 0, notes: notes + refusals)
    }

    private static func text(_ message: JSONValue) -> String {
        if case .string(let text)? = message["message"] { text } else { "refused" }
    }

    private static func count(_ value: JSONValue?) -> Int {
        if case .array(let items)? = value { items.count } else { 0 }
    }
}
