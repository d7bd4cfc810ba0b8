import LayoutCore
import LayoutServer

/// The rooms of a `--rooms` run: `PREFIX-0001`, `PREFIX-0002`, … (numbered with at least 4
/// digits), each reached at the load URL's path plus `/NAME` (`/ws` → `/ws/PREFIX-0001`).
public struct RoomPlan: Equatable, Sendable {
    public let names: [RoomName]

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(rooms: Int, prefix: String) throws(Invalid) {
        guard rooms >= 1 else { throw Invalid(description: "at least one room") }
        let width = max(4, String(rooms).count)
        var names: [RoomName] = []
        names.reserveCapacity(rooms)
        for index in 1...rooms {
            let digits = String(index)
            let text = prefix + "-" + String(repeating: "0", count: width - digits.count) + digits
            guard let name = RoomName(text) else {
                throw Invalid(description: "\(text) is not a room name (1 to \(RoomName.maxLength) of a-z, 0-9, -, _, starting with a letter or a digit): choose another prefix")
            }
            names.append(name)
        }
        self.names = names
    }

    public var count: Int { names.count }

    /// The WebSocket path of room `index` under `base` (the load URL's path).
    public func path(of index: Int, under base: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + names[index].description
    }
}
