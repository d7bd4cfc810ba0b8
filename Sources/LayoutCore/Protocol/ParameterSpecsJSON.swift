import ForceLayout

extension ServerMessages {
    /// `hello.paramSpecs`: `Parameters.table` as JSON, so a client can build its controls
    /// from the server's own names, ranges, defaults and hints. Written once.
    public static let paramSpecs: [UInt8] = {
        var writer = JSONWriter(reservingCapacity: 2048)
        writer.array(Parameters.table) { writeSpec($1, into: &$0) }
        return writer.bytes
    }()

    /// `{"name":…,"kind":…,"label":…,"description":…,"default":…,"min":…,"minExclusive":…,
    /// "max":…,"step":…,"control":…}`; numbers only have `min` to `step`, and choices
    /// `"options":[…]` (the names, in the order a menu lists them) in their place; a parameter
    /// of one physics only says which (`"physics":"cells"`).
    private static func writeSpec(_ spec: ParameterSpec, into writer: inout JSONWriter) {
        writer.raw("{\"name\":")
        writer.string(spec.name)
        writer.member("kind", spec.kind.rawValue)
        writer.member("label", spec.label)
        writer.member("description", spec.description)
        writer.raw(",\"default\":")
        writer.parameterValue(spec.defaultValue)
        if let range = spec.range, let step = spec.step {
            writer.member("min", range.lower)
            writer.member("minExclusive", range.lowerExclusive)
            writer.member("max", range.upper)
            writer.member("step", step)
        }
        if let options = spec.options {
            writer.raw(",\"options\":")
            writer.strings(options)
        }
        writer.member("control", spec.control.rawValue)
        if let physics = spec.physics { writer.member("physics", physics.rawValue) }
        writer.raw("}")
    }
}
