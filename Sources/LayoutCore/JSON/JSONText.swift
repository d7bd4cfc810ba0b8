/// Small helpers to render values in messages the way the wire writes them.
package enum JSONText {
    package static func number(_ value: Double) -> String {
        var writer = JSONWriter(reservingCapacity: 24)
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
