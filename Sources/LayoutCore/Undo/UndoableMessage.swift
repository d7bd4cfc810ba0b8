extension ServerMessages {
    /// `{"type":"undoable","count":N,"next":"add 10 cells"}`: what this connection can undo,
    /// sent when its list changed (`next`: its last change, left out when `count` is 0).
    public static func undoable(count: Int, next: String?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.raw("{\"type\":\"undoable\",\"count\":")
        writer.integer(count)
        if let next { writer.member("next", next) }
        writer.raw("}")
        return writer.bytes
    }
}
