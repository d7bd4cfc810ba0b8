import Foundation
import XCTest
@testable import LayoutCore

/// The drawing's colours are the page's: Tests/fixtures/palette.json, written from the page's
/// own code (Tests/web/palettefixture.test.mjs), holds clients' and groups' colours in both
/// schemes, the order of groups and each cell's colour in a small room.
final class PaletteFixtureTests: XCTestCase {
    private struct Fixture: Decodable {
        struct Colored: Decodable {
            var id: String?
            var index: Int?
            var light: String
            var dark: String
        }
        struct Order: Decodable {
            var names: [String]
            var sorted: [String]
        }
        struct RoomCell: Decodable {
            var id: Int
            var owner: String?
            var color: String?
            var group: String?
            var light: String
        }
        var clients: [Colored]
        var groups: [Colored]
        var groupOrder: Order
        var room: [RoomCell]
    }

    private func fixture() throws -> Fixture {
        let file = GoldenFixturesTests.folder.appendingPathComponent("palette.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: file))
    }

    func testClientColoursInBothSchemesAreThePagesIncludingTheNeutralGrey() throws {
        let cases = try fixture().clients
        XCTAssertGreaterThan(cases.count, 10)
        for item in cases {
            XCTAssertEqual(CellPalette.client(item.id, scheme: .light).hex, item.light, item.id ?? "no owner")
            XCTAssertEqual(CellPalette.client(item.id, scheme: .dark).hex, item.dark, item.id ?? "no owner")
        }
    }

    func testGroupColoursAreThePages() throws {
        for item in try fixture().groups {
            XCTAssertEqual(CellPalette.group(item.index!, scheme: .light).hex, item.light, "group \(item.index!)")
            XCTAssertEqual(CellPalette.group(item.index!, scheme: .dark).hex, item.dark, "group \(item.index!)")
        }
    }

    func testGroupsAreSortedAsThePageSortsThem() throws {
        let order = try fixture().groupOrder
        XCTAssertEqual(CellColors.sortedGroups(Set(order.names)), order.sorted)
    }

    func testEachCellIsPaintedByItsColourElseGroupElseOwner() throws {
        let room = try fixture().room
        let colors = CellColors.colors(of: room.map { CellColors.Cell(owner: $0.owner, color: $0.color, group: $0.group) })
        XCTAssertEqual(colors.map(\.hex), room.map(\.light))
    }
}
