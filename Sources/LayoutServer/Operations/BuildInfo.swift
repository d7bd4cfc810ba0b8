import CBuildID
import ForceLayout

/// What `forcelayout --version` prints and `/metrics` labels `forcelayout_build_info` with:
/// the version, and the build: the binary's GNU build ID (the linker's hash of it, so two
/// binaries that differ never share one), how it was compiled, and for which machine.
public enum BuildInfo {
    /// Raised with each release (README, "Versions").
    public static let version = "0.28.0"

    /// For example `3f2a9c01b7d4 release x86_64 avx2`.
    public static let build: String = {
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        #if arch(x86_64)
        let machine = "x86_64"
        #elseif arch(arm64)
        let machine = "arm64"
        #else
        let machine = "other"
        #endif
        let vector = forceLoopLanes == 8 ? "avx2" : "portable"
        return [buildID.map { String($0.prefix(12)) } ?? "no-build-id", configuration, machine, vector].joined(separator: " ")
    }()

    /// The whole line `--version` prints.
    public static var line: String { "forcelayout \(version) (build \(build))" }

    /// The executable's GNU build ID (its `.note.gnu.build-id`), in hex; nil when it has none.
    static let buildID: String? = {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = forcelayout_build_id(&bytes, bytes.count)
        guard count > 0 else { return nil }
        return bytes.prefix(count).map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    }()
}
