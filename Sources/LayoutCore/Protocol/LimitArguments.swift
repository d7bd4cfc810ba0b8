/// `serve`'s limit flags read with `Limits.table`: `--max-cells 40` or `--max-cells=40`.
public struct LimitArguments {
    /// Why the flags cannot be taken; names the flag.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The limits the flags set, the others at their defaults, reconciled (`Limits.reconcile`).
    /// An unknown flag, a flag without a value, a malformed value or one out of bounds is a
    /// `Problem`, and nothing is taken.
    public static func limits(from arguments: [String]) throws(Problem) -> Limits {
        var limits = Limits(), given = Set<String>(), rest = arguments[...]
        while let argument = rest.popFirst() {
            let (flag, inline) = split(argument)
            guard let spec = Limits.table.first(where: { $0.flag == flag }) else {
                throw Problem(description: argument.hasPrefix("-") ? "Unknown option '\(flag)'" : "Unexpected argument '\(argument)'")
            }
            guard let text = inline ?? rest.popFirst() else { throw Problem(description: "Missing value for '\(flag)'") }
            guard let value = Double(text), spec.isCount ? Int(text) != nil : value.isFinite else {
                throw Problem(description: "\(flag) must be \(spec.isCount ? "a whole number" : "a number"), not '\(text)'")
            }
            guard spec.set(value, in: &limits) else { throw Problem(description: spec.boundsError) }
            given.insert(spec.key)
        }
        if let problem = limits.reconcile(given: given) { throw Problem(description: problem) }
        return limits
    }

    /// `--flag=value` as (flag, value); any other argument as (it, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The limits' part of `serve --help`: each flag, its help, default and bounds.
    public static var help: String {
        let rows = Limits.table.map { spec in
            let value = LimitSpec.Bounds.number(spec.defaultValue)
            return "  \(spec.flag) <n>\n" + wrapped("\(spec.help) (default: \(value); \(spec.bounds.text))", indent: 8)
        }
        return "LIMITS (each announced to clients in hello.limits):\n" + rows.joined(separator: "\n")
    }

    /// `text` in lines of at most 78 columns, each indented (the help is not wrapped again).
    private static func wrapped(_ text: String, indent: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > 78 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.map { String(repeating: " ", count: indent) + $0 }.joined(separator: "\n")
    }
}
