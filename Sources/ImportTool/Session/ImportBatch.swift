import ForceLayout
import LayoutCore

/// One message's worth: at most `maxAddPerMessage` items and `maxMessageBytes` bytes,
/// the size kept as a running sum of each item's own (every item after the first adds a
/// comma).
struct ImportBatch {
    let limits: Limits
    var cells: [NewCell] = []
    var links: [LinkRecord] = []
    private var bytes = 0

    var isEmpty: Bool { cells.isEmpty && links.isEmpty }

    /// The bytes of a message with no items (the larger, `add`'s).
    private let overhead: Int

    init(limits: Limits) {
        self.limits = limits
        overhead = Self.size(.addCells([], spawn: .random))
    }

    mutating func admit(_ cell: NewCell) -> Bool {
        guard admit(Self.size(.addCells([cell], spawn: .random)) - overhead) else { return false }
        cells.append(cell)
        return true
    }

    mutating func admit(_ link: LinkRecord) -> Bool {
        guard admit(Self.size(.link([link])) - Self.size(.link([]))) else { return false }
        links.append(link)
        return true
    }

    private mutating func admit(_ itemBytes: Int) -> Bool {
        let count = cells.count + links.count
        guard count < limits.maxAddPerMessage, overhead + 1 + bytes + itemBytes + 1 <= limits.maxMessageBytes else { return false }
        bytes += itemBytes + 1
        return true
    }

    private static func size(_ command: LayoutCommand) -> Int {
        ClientRequest(.layout(command), ref: "import").encoded.count
    }
}
