/// The name of the temporary file a state file is written through: `.<name>.<pid>.tmp` in
/// the same folder, one per writing process. Crashed writers leave theirs behind, and start-up
/// recognises them by this name (`StaleTemporaries`).
package enum TemporaryName {
    package static func make(for stateName: String, pid: Int32) -> String { ".\(stateName).\(pid).tmp" }

    /// The pid in `name` when it is exactly a name `make(for: stateName, …)` gives (a positive
    /// pid in plain decimal, no sign, no leading zero); nil for every other name.
    package static func pid(in name: String, for stateName: String) -> Int32? {
        let prefix = ".\(stateName).", suffix = ".tmp"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix),
              name.utf8.count > prefix.utf8.count + suffix.utf8.count else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy({ $0 >= "0" && $0 <= "9" }), let pid = Int32(digits), pid > 0,
              String(pid) == digits else { return nil }
        return pid
    }

    /// The state file's name and the pid in `name` when it is a name `make` gives for a state
    /// file ending in `.json` (a room's file); nil for every other name.
    package static func parse(_ name: String) -> (stateName: String, pid: Int32)? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let inner = name.dropFirst().dropLast(4)
        guard let dot = inner.lastIndex(of: ".") else { return nil }
        let stateName = String(inner[..<dot])
        guard stateName.hasSuffix(".json"), let pid = pid(in: name, for: stateName) else { return nil }
        return (stateName, pid)
    }
}
