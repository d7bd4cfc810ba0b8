import Foundation
import XCTest
@testable import LayoutCore

final class LimitTableTests: XCTestCase {
    func testEveryLimitHasOneRowAndTheFlagIsItsKeyInKebabCase() {
        XCTAssertEqual(Set(Limits.table.map(\.key)).count, Limits.table.count)
        XCTAssertEqual(Limits.spec(for: \.maxConnectionsPerAddress).flag, "--max-connections-per-address")
        XCTAssertEqual(Limits.spec(for: \.messagesPerSecond).flag, "--messages-per-second")
        // Every stored property of Limits is in the table (Mirror lists them in declaration order).
        XCTAssertEqual(Set(Mirror(reflecting: Limits()).children.compactMap(\.label)), Set(Limits.table.map(\.key)))
        for spec in Limits.table {
            XCTAssertEqual(spec.value(in: Limits()), spec.defaultValue, spec.key)
            XCTAssertTrue(spec.bounds.contains(spec.defaultValue), "\(spec.key)'s default is within its bounds")
        }
    }

    func testFlagsSetTheirLimitsAndTheRestKeepTheirDefaults() throws {
        let limits = try LimitArguments.limits(from: ["--max-cells", "40", "--max-total-cells=80", "--messages-per-second", "2.5"])
        XCTAssertEqual(limits.maxCells, 40)
        XCTAssertEqual(limits.maxTotalCells, 80)
        XCTAssertEqual(limits.messagesPerSecond, 2.5)
        XCTAssertEqual(limits.maxAddPerMessage, 40, "an add asks for at most --max-cells")
        XCTAssertEqual(limits.maxLinks, Limits().maxLinks)
        XCTAssertEqual(try LimitArguments.limits(from: []), Limits())
    }

    func testRoomsPerAddressFollowMaxRoomsUnlessGiven() throws {
        XCTAssertEqual(try LimitArguments.limits(from: ["--max-rooms", "100"]).maxRoomsPerAddress, 25)
        XCTAssertEqual(try LimitArguments.limits(from: ["--max-rooms", "10"]).maxRoomsPerAddress, 10)
        XCTAssertEqual(try LimitArguments.limits(from: ["--max-rooms", "40"]).maxRoomsPerAddress, 16)
        XCTAssertEqual(try LimitArguments.limits(from: ["--max-rooms", "100", "--max-rooms-per-address", "3"]).maxRoomsPerAddress, 3)
    }

    func testEveryBadFlagIsRefusedNamingIt() {
        let cases: [([String], String)] = [
            (["--max-cells", "0"], "--max-cells must be at least 1"),
            (["--max-links", "-1"], "--max-links must be at least 0"),
            (["--max-message-bytes", "100"], "--max-message-bytes must be in 1024...16777216"),
            (["--request-timeout", "0"], "--request-timeout must be in 1...3600 seconds"),
            (["--messages-per-second", "0"], "--messages-per-second must be positive"),
            (["--messages-per-second", "inf"], "--messages-per-second must be a number, not 'inf'"),
            (["--message-burst", "0.5"], "--message-burst must be at least 1"),
            (["--max-cells", "1.5"], "--max-cells must be a whole number, not '1.5'"),
            (["--max-cells", "many"], "--max-cells must be a whole number, not 'many'"),
            (["--max-cells"], "Missing value for '--max-cells'"),
            (["--max-cels", "5"], "Unknown option '--max-cels'"),
            (["stray"], "Unexpected argument 'stray'"),
            (["--max-clients", "10", "--max-connections", "5"], "--max-connections (5) must be at least --max-clients (10)"),
        ]
        for (arguments, expected) in cases {
            XCTAssertThrowsError(try LimitArguments.limits(from: arguments), "\(arguments)") { error in
                XCTAssertEqual((error as? LimitArguments.Problem)?.description, expected)
            }
        }
    }

    func testHelloListsEveryLimitInTheTablesOrder() throws {
        var limits = Limits()
        limits.maxCells = 7
        limits.messageBurst = 2.5
        var writer = JSONWriter(reservingCapacity: 1024)
        ServerMessages.writeLimits(limits, into: &writer)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"maxCells":7,"maxAddPerMessage":1000,"#), text)
        XCTAssertTrue(text.contains(#""messageBurst":2.5,"#), text)
        guard case .object(let members)? = try? JSONParser.parse(writer.bytes) else { return XCTFail(text) }
        XCTAssertEqual(members.map(\.key), Limits.table.map(\.key))
    }

    /// The README's table of limits ("Limits, each a flag") names every flag of the table, and
    /// each default it writes as a number is the table's.
    func testTheReadmesTableIsTheLimitTable() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "Limits, each a flag"))
        let rows = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        var documented: [String: String] = [:]
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let flags = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            let defaults = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            for (index, flag) in flags.enumerated() { documented[flag] = flags.count == defaults.count ? defaults[index] : cells[2] }
        }
        XCTAssertEqual(Set(documented.keys), Set(Limits.table.map(\.flag)))
        for spec in Limits.table {
            guard let written = documented[spec.flag], let number = Double(written) else { continue }
            XCTAssertEqual(number, spec.defaultValue, spec.flag)
        }
        XCTAssertEqual(documented.values.filter { Double($0) != nil }.count, Limits.table.count - 1,
                       "every default but the derived --max-rooms-per-address is written as a number")
    }
}
