import Dispatch
import ForceLayout
import LayoutCore

/// A room's layout and what publishing it takes (the frame encoder, the frame serial, step
/// timings, the state file's keeper). Lives behind its room's lock: one thread at a time.
package struct RoomLayout {
    var state: LayoutState
    var keeper: StateKeeper?
    private var encoder = FrameEncoder()
    private var binaryEncoder = BinaryFrameEncoder()
    private var timings = TickTimings()
    private var stepRate = StepRate()
    private var frameSerial = 0
    /// The last `data` message and the `dataVersion` it was encoded at (nil: no data).
    private var dataMessage: (version: Int, message: OutgoingMessage?)?
    /// Commands kept for a later turn, in order: the first is an add waiting for its ids'
    /// reservation to be written (`StateKeeper.prepare`).
    private var deferred: [QueuedCommand] = []
    /// What goes into the room's history (`RoomHistory`).
    private var recorder = HistoryRecorder()
    /// Nanoseconds this room's turns spent writing its history (`stats`' `historyMs`: issue 27
    /// wants it under 5% of the stepping).
    private var historyNanos: UInt64 = 0
    /// The way back to each client that sent a change, for its `undoable` news (until it leaves).
    private var undoReplies: [String: @Sendable ([UInt8]) -> Void] = [:]
    /// A room taken over publishes no frame before its `failover` (`TurnRequest.failover`):
    /// its clients get the event, the data, then the frames of the new membership version.
    private var awaitsFailover = false

    package init(state: LayoutState, keeper: StateKeeper?) {
        self.state = state
        self.keeper = keeper
        self.keeper?.start(state)
    }

    /// A turn's start (`Room.turn`): the commands and requests waiting. Returns whether the
    /// turn is a frame turn (it publishes the frame when it ends): every turn but an early one
    /// (`early`: commands came before the frame was due) of a layout that steps before and
    /// after them. Only a frame turn steps.
    mutating func beginTurn(of room: Room, early: Bool) -> Bool {
        let wasStepping = state.isStepping
        catchUp(room)
        return !early || !wasStepping || !state.isStepping
    }

    /// Between two steps: the commands and requests that came meanwhile, then one step when
    /// the layout moves. Returns the step's time in seconds and whether cells joined or left
    /// (the turn then ends with this step: its frame shows them at once); nil when the layout
    /// does not move (it settled or was paused: the turn steps no more).
    mutating func stepOnce(of room: Room) -> (seconds: Double, membership: Bool)? {
        catchUp(room)
        guard state.isStepping else { return nil }
        return (step(room), state.membershipChanged)
    }

    /// Seconds the last frame took to encode and publish (what a turn keeps back for it).
    private(set) var publishSeconds = 0.0

    /// A turn's end: the frame and status of a frame turn, or of an early one in which cells
    /// joined or left (so the next frame always shows what an `added` or `removed` said; the
    /// frame turns keep their time); the saving news; a save when due.
    mutating func endTurn(of room: Room, frameTurn: Bool, steps: Int) -> TurnOutcome {
        tellSaving(room)
        if frameTurn || state.membershipChanged {
            let start = DispatchTime.now().uptimeNanoseconds
            if state.isStepping {
                stepRate.record(tick: state.simulation.tick, at: Double(start) / 1e9)
            } else {
                stepRate.reset()
            }
            publishChanges(to: room)
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
            publishSeconds = Double(nanoseconds) / 1e9
            RoomMetrics.encode.recordNanoseconds(nanoseconds)
        }
        let saving = keeper?.saveIfDue(state) ?? false
        return TurnOutcome(again: state.isStepping || saving || !deferred.isEmpty, stepping: state.isStepping,
                           frameTurn: frameTurn, steps: steps)
    }

    /// The commands and requests waiting, if any; the service thread is told of the events
    /// they caused at once (not at the turn's end: an import waits for its answers), and the
    /// status (`hello`, `GET /rooms`, `stats`, a cluster's relays) has what they changed (cells,
    /// pins, parameters) before the frame.
    private mutating func catchUp(_ room: Room) {
        // The requests first: a command pushed before a request is then in the queue too, and
        // is applied before the request is answered (a failover's commands before its event).
        let requests = room.requests.drain()
        var published = false
        if !deferred.isEmpty || !room.commands.isEmpty {
            published = applyQueuedCommands(of: room)
            if published {
                publishStatus(to: room, pinned: state.pinnedIfChanged)
                room.publish(.status)
            }
        }
        if !requests.isEmpty {
            answerRequests(requests, of: room)
            published = true
        }
        if published { room.announce() }
    }

    /// When the room's writes start failing or reach the disk again, everyone in it is told
    /// (`unsaved`, `saved`), and `hello` and `stats` say it while it lasts.
    private mutating func tellSaving(_ room: Room) {
        guard let failing = keeper?.savingChanged() else { return }
        room.status.update { $0.unsaved = failing ? true : nil }
        publish(LayoutEvent(kind: failing ? .unsaved : .saved, by: nil, tick: state.simulation.tick, detail: .none), to: room)
        room.announce()
    }

    /// Applies every command waiting, in order; a rejected one goes back to its client. An add
    /// whose ids' reservation is being written waits, with every command after it, for a later
    /// turn (the room steps and publishes meanwhile).
    @discardableResult
    private mutating func applyQueuedCommands(of room: Room) -> Bool {
        var published = false
        // A local copy, so the id reservation can use it while `state` changes.
        var keeper = self.keeper
        defer { self.keeper = keeper }
        let waiting = deferred + room.commands.drain()
        deferred = []
        for (index, queued) in waiting.enumerated() {
            switch keeper?.prepare(adding: queued.command.newIDs, to: state) ?? .ready {
            case .ready:
                break
            case .waiting:
                deferred = Array(waiting[index...])
                tellUndoable()
                return published
            case .failed(var error):
                error.ref = queued.ref
                queued.reject(error)
                continue
            }
            do throws(ProtocolError) {
                // A `point` changes the room's pointers, checked against the layout here.
                if let pointer = try state.pointer(for: queued.command, from: queued.client) {
                    room.changePointers { $0.point(pointer) }
                    continue
                }
                // The moment just before a change that removes cells shows them where they were.
                if queued.command.removesCells {
                    let start = DispatchTime.now().uptimeNanoseconds
                    recorder.keyframe(before: queued.command, state, in: room.history)
                    historyNanos += DispatchTime.now().uptimeNanoseconds - start
                }
                if state.undo.isOn { undoReplies[queued.client] = queued.reply }
                let events: [LayoutEvent]
                if case .restore(let at) = queued.command {
                    events = try restore(at, by: queued.client, from: room.history)
                } else {
                    events = try state.apply(queued.command, from: queued.client) { count, state throws(ProtocolError) in
                        try keeper?.reserve(count, for: state)
                    }
                }
                if !events.isEmpty { keeper?.changed() }
                // Handshakes and exports are judged by the new access before anyone hears of it,
                // and it is written at once (a rotated link must stay rotated after a crash).
                if case .access = queued.command, !events.isEmpty {
                    publishAccess(to: room)
                    keeper?.saveSoon()
                }
                // Relays get the status after the event (a joiner here has it before).
                let parametersChanged = events.contains { $0.kind == .params }
                if parametersChanged { statusTakesParameters(room) }
                for (index, event) in events.enumerated() {
                    let seq = publish(event, to: room)
                    // The step this change made, if any, undoes the event that tells of it.
                    if index == 0 { state.undo.published(seq: seq) }
                }
                if parametersChanged { room.publish(.status) }
                // Pointers at cells it removed end, after the event that removed them.
                if state.membershipChanged, !room.pointers.isEmpty {
                    let simulation = state.simulation
                    room.changePointers { $0.keep(cells: simulation.contains) }
                }
                published = published || !events.isEmpty
            } catch {
                var error = error
                error.ref = queued.ref
                queued.reject(error)
            }
        }
        tellUndoable()
        return published
    }

    /// Each client whose undo list changed hears what it can undo now (`undoable`).
    private mutating func tellUndoable() {
        for (client, count, next) in state.undo.takeChanged() {
            undoReplies[client]?(ServerMessages.undoable(count: count, next: next))
        }
    }

    /// Answers the requests waiting (`TurnRequest`): joiners get the room's data, exports
    /// their document. Exports of one turn share one document per format, so however many
    /// ask at once, a turn writes at most two.
    private mutating func answerRequests(_ requests: [TurnRequest], of room: Room) {
        var joined = false
        var written: [LayoutExport.Format: [UInt8]] = [:]
        for request in requests {
            switch request {
            case .failover(let node, let previous, let leftBehind):
                // An add waiting for its ids goes first: its answer comes before the event.
                guard deferred.isEmpty else {
                    room.requests.push(request)
                    continue
                }
                announceFailover(in: room, node: node, previous: previous, leftBehind: leftBehind)
                awaitsFailover = false
                joined = true
            case .data(let mailbox):
                guard let message = currentDataMessage() else { continue }
                mailbox.pushOpening(message)
                joined = true
            case .relayData:
                room.publish(.dataAnswer(currentDataMessage()?.bytes, everyone: false))
            case .frameAgain:
                state.republishFrame()
            case .republish:
                room.publish(.sendAgain)
                state.republishAll()
                keeper?.writeAgainNow()
            case .releaseDrags(let client):
                // It left: its undo list goes with it (its id never comes again).
                state.forgetUndo(of: client)
                undoReplies[client] = nil
                let events = state.releaseDrags(of: client)
                if !events.isEmpty { keeper?.changed() }
                for event in events { publish(event, to: room) }
            case .export(let format, let deliver):
                let bytes = written[format] ?? state.export(room: room.name.description).encoded(as: format)
                written[format] = bytes
                deliver(bytes)
            }
        }
        if joined { room.announce() }
    }

    /// The room moved here from `previous` (`TurnRequest.failover`): its clients there left,
    /// and everyone, here and through the relays, hears the event and gets the data as of it.
    private mutating func announceFailover(in room: Room, node: String, previous: String, leftBehind: [String]) {
        for client in leftBehind { room.presence(.left, of: client) }
        // As the event says (not what the relays last heard).
        statusTakesParameters(room)
        publish(LayoutEvent(kind: .failover, by: nil, tick: state.simulation.tick,
                            detail: .failover(node: node, previous: previous, pinned: room.status.current.pinned,
                                              parameters: state.simulation.parameters)), to: room)
        let data = currentDataMessage()
        room.publish(.dataAnswer(data?.bytes, everyone: true))
        if let data { room.pointers.tellEveryone(data) }
    }

    /// The room's `data` message (nil: it has no data), encoded again only after a change.
    mutating func currentDataMessage() -> OutgoingMessage? {
        if dataMessage?.version != state.dataVersion {
            let records = state.records
            let links = state.simulation.links
            let bytes = records.isEmpty && links.isEmpty ? nil : DataMessage.encode(records: records, links: links, linkAttrs: state.catalog.links)
            dataMessage = (state.dataVersion, bytes.map { OutgoingMessage($0) })
        }
        return dataMessage?.message
    }

    /// The room's status takes the parameters before an event that says them is published: a
    /// joiner's `hello` has the parameters of every `params` or `failover` event it replays (with
    /// the next step's status, a joiner between the two had the old ones, the event only as
    /// history).
    private func statusTakesParameters(_ room: Room) {
        let parameters = state.simulation.parameters
        room.status.update { $0.parameters = parameters }
    }

    /// The room's access to its board (this server's handshakes and connections) and, when it
    /// changed, to whoever listens (a cluster's relays).
    private func publishAccess(to room: Room) {
        if room.access.publish(state.access) { room.publish(.access(state.access)) }
    }

    /// One step, timed; returns its seconds.
    private mutating func step(_ room: Room) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        // While someone waits for a moment of this room's past, it steps on one core: a big
        // room's parallel step takes every core each tick, and on a machine of two a moment
        // (15 ms of work) waited 60 ms more behind it (bench-scrub over an hour of 10k cells).
        let events = state.step(parallel: room.history.isRead ? false : nil)
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
        let seconds = Double(nanoseconds) / 1e9
        timings.record(seconds * 1e3)
        RoomMetrics.step.recordNanoseconds(nanoseconds)
        keeper?.changed()
        for event in events { publish(event, to: room) }
        if !events.isEmpty { room.announce() }
        return seconds
    }

    /// The frame (when cells moved, joined or left) and the status; then the service thread
    /// is told the room has news.
    mutating func publishChanges(to room: Room) {
        let start = DispatchTime.now().uptimeNanoseconds
        recorder.start(state, in: room.history, seq: room.bus.nextSeq - 1)
        historyNanos += DispatchTime.now().uptimeNanoseconds - start
        guard !awaitsFailover else { return }
        let (changes, pinned) = state.takeChanges()
        guard !changes.isEmpty else { return }
        if changes.contains(.access) { publishAccess(to: room) }
        if changes.needsFrame {
            let simulation = state.simulation
            let owners = changes.contains(.membership) ? state.ownership.compact(to: simulation.ids) : []
            let at = LayoutEvent.now()
            let text = textForms(simulation, owners: owners, at: at, of: room)
            let binary = binaryEncoder.encode(simulation, owners: owners, at: at)
            frameSerial += 1
            let now = DispatchTime.now().uptimeNanoseconds
            let interval = UInt64(1e9 / simulation.parameters.tickRate)
            let published = PublishedFrame(serial: frameSerial, text: text, binary: binary, publishedAt: now,
                                           nextDue: state.isStepping ? now + interval : nil)
            room.frames.publish(published)
            publishStatus(to: room, pinned: pinned)
            room.publish(.frame(published, textHead: encoder.headCount, textMembership: encoder.membershipPart,
                                binaryMembership: binaryEncoder.membershipSection, nextDueIn: state.isStepping ? interval : 0))
            let recording = DispatchTime.now().uptimeNanoseconds
            recorder.framed(state, in: room.history)
            historyNanos += DispatchTime.now().uptimeNanoseconds - recording
        } else {
            publishStatus(to: room, pinned: pinned)
            room.publish(.status)
        }
        room.announce()
    }

    /// The frame's v1 forms: written now while a v1 client is in the room (in a cluster, on any
    /// server: the relays get them), else deferred to a v1 joiner's demand here (`TextFrame`).
    private mutating func textForms(_ simulation: Simulation, owners: [Ownership.Run], at: Int, of room: Room) -> TextFrame {
        let source = encoder.source(simulation, owners: owners, at: at)
        return room.wantsText ? TextFrame(source.frame) : TextFrame(deferring: source)
    }

    /// Continues the numbering of a room another server stepped before (a failover): frames
    /// go on from the last one relays had.
    package mutating func continueFrames(after serial: Int, failover: Bool) {
        frameSerial = max(frameSerial, serial)
        awaitsFailover = failover
    }

    mutating func close() {
        keeper?.close(state)
    }

    /// A room handed off, before its last write: what is waiting is applied and published. An
    /// add waiting for its ids' reservation waits for that write to end, then goes (or, the
    /// write failed, is refused); another may then ask for a reservation of its own.
    mutating func finish(_ room: Room) {
        catchUp(room)
        var tries = 0
        while !deferred.isEmpty, tries < 100 {
            keeper?.waitForWrites()
            catchUp(room)
            tries += 1
        }
        publishChanges(to: room)
    }

    /// `event` to the room's connections (its bus) and its history; returns its number.
    @discardableResult
    private mutating func publish(_ event: LayoutEvent, to room: Room) -> UInt64 {
        let envelope = room.bus.publish(event)
        let start = DispatchTime.now().uptimeNanoseconds
        recorder.record(envelope, state, in: room.history)
        historyNanos += DispatchTime.now().uptimeNanoseconds - start
        return envelope.seq
    }

    /// The room becomes what it was at `at` (`LayoutState.restore`), rebuilt from its history.
    private mutating func restore(_ at: Int, by client: String, from history: RoomHistory) throws(ProtocolError) -> [LayoutEvent] {
        guard !history.isOff else {
            throw ProtocolError(.unavailable, "this server keeps no history (--history-bytes or --history-seconds is 0)")
        }
        guard let moment = history.current.moment(at: at) else {
            throw ProtocolError(.unavailable, "the room has no history yet")
        }
        let saved = moment.state.snapshot(placed: moment.placed, floor: state.simulation.nextID)
        return try state.restore(saved, moment: moment.at, by: client)
    }

    private func publishStatus(to room: Room, pinned: [CellID]?) {
        let simulation = state.simulation
        let report = simulation.lastReport
        let historyBytes = room.history.isOff ? nil : room.history.current.bytes
        room.status.update { status in
            if let pinned { status.pinned = pinned }
            status.parameters = simulation.parameters
            status.tick = simulation.tick
            status.settled = state.settled
            status.cells = simulation.count
            status.version = simulation.version
            status.tickMs = timings.mean
            status.tickMsP99 = timings.p99
            status.stepsPerSecond = stepRate.perSecond
            status.maxMove = report.maxMove
            status.totalMove = report.totalMove
            status.physics = (simulation.usesGraphModel ? LayoutModel.graph : .cells).rawValue
            status.unfolding = simulation.isUnfolding ? true : nil
            status.historyBytes = historyBytes
            status.historyMs = room.history.isOff ? nil : Double(historyNanos) / 1e6
        }
    }
}
