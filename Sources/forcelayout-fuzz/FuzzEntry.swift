import Foundation
import LayoutCore

/// libFuzzer calls this with every input it makes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    MessagePathFuzzer.check(bytes)
    HandshakeFuzzer.check(bytes)
    return 0
}

/// The entry point. In the fuzzing build libFuzzer's driver runs (SwiftPM makes this `main`,
/// so libFuzzer's own `main` is not linked); in the plain build every file named, or every file
/// in every folder named, runs once through the same checks.
@main
enum Entry {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        replay(CommandLine.arguments.dropFirst())
        #endif
    }

    static func replay(_ arguments: ArraySlice<String>) {
        guard !arguments.isEmpty else {
            print("usage: forcelayout-fuzz FILE|DIR… (replays inputs through the fuzz checks; see `make fuzz`)")
            exit(2)
        }
        var inputs = 0
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("forcelayout-fuzz: no such file \(argument)\n".utf8))
                exit(2)
            }
            let paths = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map { argument + "/" + $0 }
                : [argument]
            for path in paths {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                MessagePathFuzzer.check(Array(data))
                HandshakeFuzzer.check(Array(data))
                inputs += 1
            }
        }
        print("forcelayout-fuzz: \(inputs) inputs passed every check")
    }
}

#if FUZZING
/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
