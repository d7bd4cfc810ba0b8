import ForceLayout

/// Which events a connection wants.
public enum EventSelection: Equatable, Sendable {
    case all
    case only(Set<EventKind>)
}

/// A command that changes the shared layout; applied by the simulation thread.
public enum LayoutCommand: Equatable, Sendable {
    case add(count: Int, spawn: Spawn)
    case remove(ids: [CellID])
    case removeNewest(count: Int)
    case clear
    case params(ParameterChange)
    case pin(id: CellID, x: Double, y: Double)
    case unpin(id: CellID)
}

/// A validated message from a client.
public enum ClientMessage: Equatable, Sendable {
    case layout(LayoutCommand)
    case subscribe(EventSelection)
    case replay(count: Int, kinds: EventSelection)
}

/// A message with the `ref` it carried, if any.
public struct ClientRequest: Equatable, Sendable {
    public var message: ClientMessage
    public var ref: String?
}
