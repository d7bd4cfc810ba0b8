import XCTest
@testable import LayoutCore
@testable import LayoutServer

final class ExportBudgetTests: XCTestCase {
    private let a = PeerAddress(ipv4: [10, 0, 0, 1]), b = PeerAddress(ipv4: [10, 0, 0, 2])

    func testEachAddressHasAtMostItsExportsUnderWay() {
        var budget = ExportBudget(policy: .init(maxPerAddress: 2, maxBytes: 1000))
        XCTAssertEqual(budget.admit(from: a), .admit)
        XCTAssertEqual(budget.admit(from: a), .admit)
        XCTAssertEqual(budget.admit(from: a), .tooMany(2))
        XCTAssertEqual(budget.admit(from: b), .admit, "another address is not bound by a's")
        budget.ended(from: a)
        XCTAssertEqual(budget.admit(from: a), .admit)
        budget.ended(from: b)
        budget.ended(from: b)  // once too often: nothing goes below zero
        XCTAssertEqual(budget.underWay(from: b), 0)
    }

    func testDocumentsHeldCountOnceAndRefuseNewExportsPastTheBudget() {
        var budget = ExportBudget(policy: .init(maxPerAddress: 10, maxBytes: 1000))
        let shared = HTTPBody(Array(repeating: 0, count: 600)), other = HTTPBody(Array(repeating: 1, count: 500))
        budget.hold(shared.identity, bytes: shared.count)
        budget.hold(shared.identity, bytes: shared.count)
        XCTAssertEqual(budget.heldBytes, 600, "one document for two connections counts once")
        XCTAssertEqual(budget.admit(from: a), .admit)
        budget.hold(other.identity, bytes: other.count)
        XCTAssertEqual(budget.heldBytes, 1100)
        XCTAssertEqual(budget.admit(from: b), .full(1000))
        XCTAssertEqual(budget.admit(from: b, sharing: true), .admit, "a document held already takes no new bytes")
        budget.ended(from: b)
        XCTAssertTrue(budget.holds(shared.identity))
        budget.release(shared.identity)
        XCTAssertEqual(budget.heldBytes, 1100, "still held by the other connection")
        budget.release(shared.identity)
        XCTAssertEqual(budget.heldBytes, 500)
        XCTAssertEqual(budget.admit(from: b), .admit)
        budget.release(other.identity)
        budget.release(other.identity)
        XCTAssertEqual(budget.heldBytes, 0)
        XCTAssertEqual(budget.documentsHeld, 0)
        XCTAssertFalse(budget.holds(shared.identity))
    }

    func testDocumentsExpectedCountUntilTheyArrive() {
        var budget = ExportBudget(policy: .init(maxPerAddress: 10, maxBytes: 1000))
        XCTAssertEqual(budget.admit(from: a, expecting: 600), .admit)
        XCTAssertEqual(budget.admit(from: b, expecting: 600), .admit)
        XCTAssertEqual(budget.admit(from: b, expecting: 600), .full(1000), "two documents on their way fill it")
        budget.arrived(expecting: 600)
        budget.arrived(expecting: 600)
        XCTAssertEqual(budget.expectedBytes, 0)
        XCTAssertEqual(budget.admit(from: b, expecting: 600), .admit)
    }

    func testABodyIsWrittenInChunksToItsLastByte() {
        let body = HTTPBody((0..<(BodyWrite.chunkSize * 2 + 10)).map { UInt8(truncatingIfNeeded: $0) })
        var write = BodyWrite(body)
        var chunks: [Range<Int>] = []
        while !write.isDone {
            let chunk = write.nextChunk
            XCTAssertLessThanOrEqual(chunk.count, BodyWrite.chunkSize)
            XCTAssertEqual(write.nextIsLast, chunk.upperBound == body.count)
            chunks.append(chunk)
            write.wrote(chunk)
        }
        XCTAssertEqual(chunks.map(\.count), [BodyWrite.chunkSize, BodyWrite.chunkSize, 10])
        let buffer = ChunkBuffer()
        let payload = buffer.load(chunks[2], of: body)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: payload, count: 10)), Array(body.bytes[chunks[2]]))
        let empty = BodyWrite(HTTPBody([]))
        XCTAssertEqual(empty.nextChunk, 0..<0)
        XCTAssertTrue(empty.nextIsLast)
    }
}
