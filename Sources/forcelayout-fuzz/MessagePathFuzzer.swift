// A libFuzzer target for the path every client message takes before it changes anything: the
// strict JSON parser, MessageDecoder's validation, the error reply, and the command applied to a
// small layout the way the simulation thread applies it. Any broken invariant traps, which
// libFuzzer reports as a crash with the input that caused it.
//
// Fuzzing build (`make fuzz`):
//   swift build -c debug --product forcelayout-fuzz -Xswiftc -sanitize=fuzzer,address \
//     -Xswiftc -parse-as-library -Xswiftc -DFUZZING --build-path .build-fuzz
// The plain build (`swift build`) makes a replayer instead: `forcelayout-fuzz FILE|DIR…` runs
// every given input once through the same checks, without libFuzzer or sanitizers.

import ForceLayout
import Foundation
import LayoutCore

enum MessagePathFuzzer {
    /// The server's own limits: what a client of `forcelayout serve` is held to.
    static let limits = Limits()
    static let decoder = MessageDecoder(limits: limits)
    /// Layouts the checks build stay this small, so every input runs fast.
    static let layoutCap = 64

    static func check(_ bytes: [UInt8]) {
        let parsed = parseChecked(bytes)
        switch decoder.decode(bytes) {
        case .failure(let error):
            checkRejection(error, bytes: bytes, parsed: parsed)
        case .success(let request):
            guard case .object? = parsed else { fail("accepted a message that is not a JSON object", bytes) }
            checkAccepted(request, bytes: bytes)
        }
    }

    // MARK: The parser

    /// Parses; a document that parses must survive a write and a re-parse unchanged, and a
    /// failure must point inside the input.
    private static func parseChecked(_ bytes: [UInt8]) -> JSONValue? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            require(!error.message.isEmpty, "parse failure without a message", bytes)
            require(error.offset >= 0 && error.offset <= bytes.count, "parse failure offset \(error.offset) outside the input", bytes)
            return nil
        }
        var writer = JSONWriter()
        write(value, into: &writer)
        guard let again = try? JSONParser.parse(writer.bytes) else {
            fail("the parser rejects its own value written back: \(String(decoding: writer.bytes.prefix(200), as: UTF8.self))", bytes)
        }
        require(again == value, "a parsed value changed when written and parsed again", bytes)
        return value
    }

    private static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.bool(flag)
        case .number(let number):
            // Literals too large for a Double parse as infinity; 1e999 parses the same way.
            if number.isFinite { writer.number(number) } else { writer.raw(number > 0 ? "1e999" : "-1e999") }
        case .string(let text): writer.string(text)
        case .array(let elements): writer.array(elements) { write($1, into: &$0) }
        case .object(let members):
            writer.raw(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { writer.raw(UInt8(ascii: ",")) }
                writer.string(member.key)
                writer.raw(UInt8(ascii: ":"))
                write(member.value, into: &writer)
            }
            writer.raw(UInt8(ascii: "}"))
        }
    }

    // MARK: Rejected messages

    private static func checkRejection(_ error: ProtocolError, bytes: [UInt8], parsed: JSONValue?) {
        let isObject: Bool
        if case .object? = parsed { isObject = true } else { isObject = false }
        require((error.code == .badJSON) == !isObject, "code \(error.code.rawValue) for \(isObject ? "an object" : "no object")", bytes)
        require(error.code != .rateLimited, "the decoder never rate-limits", bytes)
        require(!error.message.isEmpty, "an error without a message", bytes)
        // Messages quote short excerpts of the input and are logged: bounded and one line.
        require(error.message.utf8.count <= 600, "an error message of \(error.message.utf8.count) bytes", bytes)
        require(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "a control character in the error message", bytes)
        if let ref = error.ref {
            require(ref.unicodeScalars.count <= 64, "an echoed ref of \(ref.unicodeScalars.count) code points", bytes)
        }
        // The reply as sent: valid JSON that says the same.
        guard let reply = try? JSONParser.parse(ServerMessages.error(error)) else {
            fail("the error reply is not valid JSON", bytes)
        }
        require(reply["type"] == .string("error") && reply["code"] == .string(error.code.rawValue)
                    && reply["message"] == .string(error.message) && reply["ref"] == error.ref.map(JSONValue.string),
                "the error reply does not say what the error says", bytes)
    }

    // MARK: Accepted messages

    private static func checkAccepted(_ request: ClientRequest, bytes: [UInt8]) {
        if let ref = request.ref {
            require(ref.unicodeScalars.count <= 64, "accepted a ref of \(ref.unicodeScalars.count) code points", bytes)
        }
        checkRanges(request.message, bytes: bytes)
        // Written back the way a client would send it, it must decode to the same request.
        let encoded = request.encoded
        switch decoder.decode(encoded) {
        case .success(let again):
            require(again == request, "re-decoding gave \(again), not \(request)", bytes)
        case .failure(let error):
            fail("the accepted request written back is rejected: \(error.message)", bytes)
        }
        if case .layout(let command) = request.message {
            applyToSmallLayout(command, bytes: bytes)
        }
    }

    private static func checkRanges(_ message: ClientMessage, bytes: [UInt8]) {
        switch message {
        case .layout(.add(let count, let spawn)):
            require((1...limits.maxAddPerMessage).contains(count), "add count \(count)", bytes)
            checkSpawn(spawn, bytes: bytes)
        case .layout(.addCells(let cells, let spawn)):
            checkCells(cells, spawn: spawn, bytes: bytes)
        case .layout(.update(let edits)):
            require((1...limits.maxAddPerMessage).contains(edits.count) && edits.allSatisfy { $0.id >= 1 }, "update \(edits.count)", bytes)
        case .layout(.link(let links)):
            checkLinks(links, bytes: bytes)
        case .layout(.unlink(let ends)):
            require((1...limits.maxAddPerMessage).contains(ends.count), "unlink \(ends.count)", bytes)
        case .layout(.remove(let ids)):
            require(!ids.isEmpty && ids.count <= limits.maxCells && ids.allSatisfy { $0 >= 1 }, "remove ids \(ids.prefix(8))", bytes)
        case .layout(.removeNewest(let count)):
            require(count >= 1, "remove count \(count)", bytes)
        case .layout(.clear), .layout(.undo):
            break
        case .layout(.params(let change)):
            require(!change.isEmpty, "an empty parameter change", bytes)
            for (spec, value) in change.entries {
                require(spec.accepts(value), "\(spec.name) \(value) accepted", bytes)
            }
        case .layout(.pin(let id, let x, let y, _)):
            require(id >= 1 && isCoordinate(x) && isCoordinate(y), "pin \(id) at (\(x), \(y))", bytes)
        case .layout(.unpin(let id)):
            require(id >= 1, "unpin \(id)", bytes)
        case .layout(.point(let id, let name)):
            require(id.map { $0 >= 1 } ?? true, "point at \(id ?? 0)", bytes)
            if let name {
                // A name is one a client may give, trimmed already (`Pointer.name` takes it as it is).
                require(Pointer.name(name) == .success(name), "point name \(name.debugDescription)", bytes)
            }
        case .subscribe:
            break
        case .replay(let count, _):
            require((1...limits.replayBuffer).contains(count), "replay count \(count)", bytes)
        case .setAccess, .deleteRoom:
            break
        case .rotate(let kinds):
            require(!kinds.isEmpty, "rotate of no links", bytes)
        case .layout(.access):
            fail("a client's message decoded to the server's own access change", bytes)
        case .layout(.restore(let at)):
            require(at >= 0, "restore at \(at)", bytes)
        case .history(let before, let count):
            require((1...limits.historyBatch).contains(count) && (before ?? 1) >= 1, "history count \(count)", bytes)
        case .moment(let at, _, _):
            require(at >= 0, "moment at \(at)", bytes)
        }
    }

    /// A coordinate the server accepts: finite, at most 1e9 either way.
    private static func isCoordinate(_ value: Double) -> Bool { value.isFinite && abs(value) <= 1e9 }

    private static func checkSpawn(_ spawn: Spawn, bytes: [UInt8]) {
        if case .point(let x, let y) = spawn { require(isCoordinate(x) && isCoordinate(y), "spawn point (\(x), \(y))", bytes) }
    }

    private static func checkCells(_ cells: [NewCell], spawn: Spawn, bytes: [UInt8]) {
        require((1...limits.maxAddPerMessage).contains(cells.count), "add \(cells.count) cells", bytes)
        checkSpawn(spawn, bytes: bytes)
        for cell in cells {
            require(cell.seed.radius.map(Simulation.radiusRange.contains) ?? true, "radius \(String(describing: cell.seed.radius))", bytes)
            require((cell.seed.x == nil) == (cell.seed.y == nil), "half a position", bytes)
            require(cell.data.label.map { $0.unicodeScalars.count <= CellData.labelLimit } ?? true, "a long label", bytes)
        }
    }

    private static func checkLinks(_ links: [LinkRecord], bytes: [UInt8]) {
        require((1...limits.maxAddPerMessage).contains(links.count), "link \(links.count)", bytes)
        for link in links.map(\.link) {
            require(link.source >= 1 && link.target >= 1 && (link.distance.map { $0.isFinite && $0 >= 0 } ?? true)
                    && (link.strength.map { (0...1).contains($0) } ?? true), "link \(link)", bytes)
        }
    }

    // MARK: Failing

    static func require(_ condition: Bool, _ what: @autoclosure () -> String, _ bytes: [UInt8]) {
        if !condition { fail(what(), bytes) }
    }

    static func fail(_ what: String, _ bytes: [UInt8]) -> Never {
        let shown = String(decoding: bytes.prefix(300), as: UTF8.self)
        fatalError("forcelayout-fuzz: \(what)\ninput (\(bytes.count) bytes): \(shown)")
    }
}
