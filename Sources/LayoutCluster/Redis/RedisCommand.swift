/// A command's arguments as hiredis takes them (binary-safe byte strings).
enum RedisCommand {
    /// `SET key value …` from words.
    static func words(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }

    /// `EVAL script numkeys keys… arguments…`: a script Redis runs in one step.
    static func eval(_ script: String, keys: [String], arguments: [[UInt8]]) -> [[UInt8]] {
        [Array("EVAL".utf8), Array(script.utf8), Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) } + arguments
    }
}
