import Dispatch
import LayoutCore

/// What a relay does with each broadcast of the owner (`RoomMirror`), under the mirror's lock:
/// a frame published (once its membership is known), events mirrored on the room's bus (a
/// gap closes the clients here), the status taken, and the room's `data` handed to the
/// joiners waiting for it.
extension RoomMirror {
    /// Applies a broadcast of the owner, then wakes the room's connections (not for a frame
    /// that was not published).
    func apply(_ broadcast: RoomBroadcast, _ state: inout State) {
        switch broadcast {
        case .frame(let frame, let status):
            apply(status, &state)
            guard publish(frame, &state) else { return }
        case .events(let events):
            mirror(events, &state)
        case .status(let status):
            apply(status, &state)
        case .data(let through, let message, let everyone):
            deliver(message, through: through, everyone: everyone, &state)
        case .access(let access):
            // The service thread judges the room's connections here again (`room.announce`).
            room.access.publish(access)
        case .pointers(let pointers, let whole):
            // Only while the room is relayed through this mirror: a server that just took the
            // room over hears its own broadcasts come back for a moment before its route changes,
            // and unlike events and frames (dropped by sequence number and serial) a pointer set
            // taken again would bring back a pointer that ended since.
            guard room.mirror === self else { return }
            room.changePointers { board in
                whole ? board.replace(with: pointers) : pointers.flatMap { board.mirror($0) }
            }
        }
        room.announce()
    }

    /// Publishes a frame newer than the last, numbered on from this server's serials; false
    /// when it is not published (old, its membership not known here, or unusable).
    private func publish(_ frame: ReplicatedFrame, _ state: inout State) -> Bool {
        guard frame.serial > state.lastSerial else { return false }
        if let membership = frame.membership { state.membership = membership }
        guard let membership = state.membership, membership.version == frame.version else {
            // Its membership never came (lost with Redis): Redis keeps the current one.
            if !state.readingMembership {
                state.readingMembership = true
                readMembership()
            }
            return false
        }
        state.localSerial += 1
        guard let published = frame.published(serial: state.localSerial, membership: membership,
                                              now: DispatchTime.now().uptimeNanoseconds) else { return false }
        state.lastSerial = frame.serial
        room.frames.publish(published)
        return true
    }

    /// Puts the owner's events on the room's bus; events missed before them close the
    /// clients here.
    private func mirror(_ events: [ReplicatedEvent], _ state: inout State) {
        var missed = false
        for event in events {
            let last = room.bus.nextSeq - 1
            if last > 0, event.seq > last + 1 { missed = true }
            room.bus.mirror(event.envelope)
        }
        if missed, state.isWatched { link.gap() }
    }

    /// Hands the room's `data` message to the joiners whose opening ended by event `through`
    /// (to every client here for `everyone`); asks again for those still waiting.
    private func deliver(_ message: [UInt8]?, through: UInt64, everyone: Bool, _ state: inout State) {
        let ready = everyone ? state.waiting : state.waiting.filter { $0.through <= through }
        state.waiting.removeAll { everyone || $0.through <= through }
        if let message {
            let outgoing = OutgoingMessage(message)
            var targets = Dictionary(ready.map { (ObjectIdentifier($0.mailbox), $0.mailbox) }) { first, _ in first }
            if everyone { targets.merge(state.mailboxes) { first, _ in first } }
            for mailbox in targets.values { mailbox.pushOpening(outgoing) }
        }
        state.askedForData = !state.waiting.isEmpty
        if state.askedForData { link.askForData() }
    }

    private func apply(_ status: ReplicatedStatus, _ state: inout State) {
        // Events the owner published before this status that never came (Redis lost them, or
        // the owner could not send them): clients here who were to see them start again; a
        // mirror nobody watches yet just numbers on from there.
        if status.lastSeq > room.bus.nextSeq - 1 {
            if state.isWatched { link.gap() }
            room.bus.skip(through: status.lastSeq)
        }
        state.clients = status.clients
        if !status.owner.isEmpty { state.owner = status.owner }
        room.status.update { $0 = status.layout }
    }
}
