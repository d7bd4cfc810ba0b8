/// The messages a load client sends before measuring: `add`s of at most `maxAddPerMessage`
/// cells each, then one `params` (threshold 0 keeps the cells moving; a tick rate if asked).
public struct SetUp: Equatable, Sendable {
    /// Cells to add; 0: none.
    public var cells = 0
    /// Set threshold 0 so the layout never settles.
    public var keepMoving = true
    /// Steps per second to ask for; nil: the room's own.
    public var tickRate: Double?
    /// The server's default `maxAddPerMessage`.
    public var maxAddPerMessage = 1000

    public init(cells: Int = 0, keepMoving: Bool = true, tickRate: Double? = nil) {
        self.cells = cells
        self.keepMoving = keepMoving
        self.tickRate = tickRate
    }

    public var messages: [String] {
        var messages: [String] = []
        var left = cells
        while left > 0 {
            let count = min(left, maxAddPerMessage)
            messages.append(#"{"type":"add","count":\#(count)}"#)
            left -= count
        }
        var params: [String] = []
        if keepMoving { params.append(#""threshold":0"#) }
        if let tickRate { params.append(#""tickRate":\#(Self.number(tickRate))"#) }
        if !params.isEmpty { messages.append(#"{"type":"params",\#(params.joined(separator: ","))}"#) }
        return messages
    }

    /// 10 rather than 10.0.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
