import ForceLayout

/// How parameters read on the wire: values, the `params` object of `hello` and `params`
/// events, and ranges and options in error messages. All of it follows `Parameters.table`.
extension JSONWriter {
    public mutating func parameterValue(_ value: ParameterValue) {
        switch value {
        case .number(let number): self.number(number)
        case .bool(let flag): bool(flag)
        case .choice(let name): string(name)
        }
    }
}

extension ServerMessages {
    /// `{"stiffness":0.02,"charge":10,…}`: every parameter, in table order.
    static func writeParameters(_ parameters: Parameters, into writer: inout JSONWriter) {
        writer.raw(UInt8(ascii: "{"))
        for (offset, spec) in Parameters.table.enumerated() {
            if offset > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.string(spec.name)
            writer.raw(UInt8(ascii: ":"))
            writer.parameterValue(spec.value(in: parameters))
        }
        writer.raw(UInt8(ascii: "}"))
    }
}

extension ParameterSpec {
    /// A choice's options as error messages list them: `"auto", "cells", "graph"`.
    var optionsText: String {
        (options ?? []).map { Excerpt.quoted($0, limit: 64) }.joined(separator: ", ")
    }
}

extension NumberRange {
    /// `[0, 1000]`, or `(0, 1]` when the lower bound is excluded.
    public var text: String {
        "\(lowerExclusive ? "(" : "[")\(JSONText.number(lower)), \(JSONText.number(upper))]"
    }
}
