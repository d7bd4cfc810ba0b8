import Foundation
import LayoutCore
import Logging
import Synchronization
import XCTest
@testable import LayoutRooms

/// Client numbers with a store: the first block is written before any number, the next ahead
/// of need on a queue of its own; the state directory's file holds it across runs.
final class ClientNumbersTests: XCTestCase {
    private final class Store: ClientReservationStore {
        let stored = Mutex<Int?>(nil)
        let failing = Atomic<Bool>(false)
        func read() throws(StoreFailure) -> Int? { stored.withLock { $0 } }
        func write(_ reservation: Int) throws(StoreFailure) {
            guard !failing.load(ordering: .relaxed) else { throw StoreFailure("full") }
            stored.withLock { $0 = max($0 ?? 0, reservation) }
        }
    }

    private let logger = Logger(label: "test")

    func testRunsNeverRepeatANumber() throws {
        let store = Store()
        var seen = Set<Int>()
        for _ in 0..<5 {
            let numbers = try ClientNumbers(store: store, logger: logger, block: 16)
            for _ in 0..<40 { XCTAssertTrue(seen.insert(numbers.take()).inserted) }
            // The writes ahead are asynchronous: a run may end before they land (a kill).
        }
        XCTAssertEqual(seen.count, 200)
    }

    func testAStoreThatCannotBeWrittenAtStartFails() {
        let store = Store()
        store.failing.store(true, ordering: .relaxed)
        XCTAssertThrowsError(try ClientNumbers(store: store, logger: logger))
    }

    func testTheStateDirectorysFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try XCTUnwrap(ClientReservationFile.path(directory: directory, statePath: nil))
        XCTAssertTrue(path.hasSuffix("/.clients.json"))
        XCTAssertEqual(ClientReservationFile.path(directory: nil, statePath: "/x/main.json"), "/x/main.json.clients")
        XCTAssertNil(ClientReservationFile.path(directory: nil, statePath: nil))
        let file = ClientReservationFile(path: path)
        XCTAssertNil(try file.read())
        let first = try ClientNumbers(store: file, logger: logger)
        XCTAssertEqual(first.take(), 1)
        XCTAssertEqual(try file.read(), 1025)
        XCTAssertEqual(try ClientNumbers(store: file, logger: logger).take(), 1025)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [".clients.json"])
        for bad in ["{}", "12", #"{"format":"forcelayout-clients","reservation":0}"#, #"{"format":"x","reservation":5}"#] {
            try bad.write(toFile: path, atomically: false, encoding: .utf8)
            XCTAssertThrowsError(try file.read(), bad)
        }
    }
}
