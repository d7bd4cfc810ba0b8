import ForceLayout
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import LayoutCore

/// `GET /export/NAME.svg`'s drawing: well-formed XML (parsed here by Foundation's parser), a
/// circle per cell and a line per link, labels escaped, colours and radii as the page draws
/// them, a frame that holds every cell.
final class SVGDrawingTests: XCTestCase {
    /// What the parser saw: elements with their attributes, and each element's text.
    private final class Collected: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var texts: [String] = []
        private var current = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" || name == "title" { texts.append(current) }
            current = ""
        }

        func named(_ name: String) -> [[String: String]] { elements.filter { $0.name == name }.map(\.attributes) }
    }

    private func parse(_ export: LayoutExport, file: StaticString = #filePath, line: UInt = #line) throws -> Collected {
        let bytes = export.encoded(as: .svg)
        let parser = XMLParser(data: Data(bytes))
        let collected = Collected()
        parser.delegate = collected
        XCTAssertTrue(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?")\n\(String(decoding: bytes, as: UTF8.self))",
                      file: file, line: line)
        return collected
    }

    private func cell(_ id: CellID, _ x: Double, _ y: Double, _ data: CellData = CellData(), radius: Double? = nil) -> LayoutExport.Cell {
        LayoutExport.Cell(id: id, x: x, y: y, pinned: false, data: data, radius: radius)
    }

    private var room: LayoutExport {
        var export = LayoutExport(
            room: "demo<&>", tick: 3, defaultRadius: 5,
            cells: [cell(1, 0, 0, CellData(label: #"Tom & "Jerry" <3 'x'"#)),
                    cell(2, 100, 50, CellData(color: "#ff8800"), radius: 12),
                    cell(3, -40, 20, CellData(label: "bell\u{7}tab\tend\u{FFFE}", group: "g")),
                    cell(4, 10, -30)],
            links: [Link(source: 1, target: 2), Link(source: 2, target: 3), Link(source: 1, target: 4)])
        export.owners = [Ownership.Run(client: "c1", first: 1, last: 1), Ownership.Run(client: "c7", first: 4, last: 4)]
        return export
    }

    func testTheDrawingIsWellFormedSVGWithACirclePerCellAndALinePerLink() throws {
        let seen = try parse(room)
        let svg = try XCTUnwrap(seen.named("svg").first)
        XCTAssertEqual(svg["xmlns"], "http://www.w3.org/2000/svg")
        XCTAssertEqual(svg["version"], "1.1")
        XCTAssertEqual(seen.named("circle").count, 4)
        XCTAssertEqual(seen.named("line").count, 3)
        XCTAssertEqual(seen.named("text").count, 2, "one text per labelled cell")
        XCTAssertEqual(seen.named("rect").count, 1, "the background")
        XCTAssertEqual(seen.elements.first?.name, "svg")
        XCTAssertEqual(seen.elements.dropFirst().first?.name, "title", "the title comes first, as SVG 1.1 wants")
        let text = String(decoding: room.encoded(as: .svg), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8""#), text)
        XCTAssertLessThan(try XCTUnwrap(text.range(of: "<line")).lowerBound, try XCTUnwrap(text.range(of: "<circle")).lowerBound,
                          "links are drawn under the cells")
    }

    func testLabelsAndTheTitleAreEscapedAndCharactersXMLCannotHoldAreDropped() throws {
        let seen = try parse(room)
        XCTAssertEqual(seen.texts, ["demo<&>", #"Tom & "Jerry" <3 'x'"#, "belltab\tend"])
        let text = String(decoding: room.encoded(as: .svg), as: UTF8.self)
        XCTAssertTrue(text.contains("<title>demo&lt;&amp;&gt;</title>"), text)
        XCTAssertTrue(text.contains(">Tom &amp; &quot;Jerry&quot; &lt;3 &apos;x&apos;</text>"), text)
        XCTAssertFalse(text.contains("\u{7}") || text.contains("\u{FFFE}") || text.contains("\u{FFFD}"), text)
    }

    func testCellsHaveTheirRadiusAndThePagesColourLinksTheirEnds() throws {
        let seen = try parse(room)
        let circles = seen.named("circle")
        XCTAssertEqual(circles.map { $0["r"] }, ["5", "12", "5", "5"], "own radius, else cellSize/2")
        XCTAssertEqual(circles.map { $0["cx"] }, ["0", "100", "-40", "10"])
        XCTAssertEqual(circles.map { $0["fill"] }, [CellPalette.client("c1").hex, "#ff8800", CellPalette.group(0).hex,
                                                    CellPalette.client("c7").hex])
        XCTAssertEqual(seen.named("line").map { [$0["x1"], $0["y1"], $0["x2"], $0["y2"]] },
                       [["0", "0", "100", "50"], ["100", "50", "-40", "20"], ["0", "0", "10", "-30"]])
        XCTAssertEqual(seen.named("g").first(where: { $0["id"] == "links" })?["stroke"], SVGDrawing.linkColor)
    }

    func testTheFrameHoldsEveryCellWithAMargin() throws {
        let seen = try parse(room)
        let box = try XCTUnwrap(seen.named("svg").first?["viewBox"]).split(separator: " ").compactMap { Double($0) }
        XCTAssertEqual(box.count, 4)
        let (x, y, w, h) = (box[0], box[1], box[2], box[3])
        for cell in room.cells {
            let r = cell.radius ?? room.defaultRadius
            XCTAssertLessThan(x, cell.x - r)
            XCTAssertLessThan(y, cell.y - r)
            XCTAssertGreaterThan(x + w, cell.x + r)
            XCTAssertGreaterThan(y + h, cell.y + r)
        }
        let background = try XCTUnwrap(seen.named("rect").first)
        XCTAssertEqual([background["x"], background["y"], background["width"], background["height"]].compactMap { $0.flatMap(Double.init) },
                       box, "the background covers the frame")
    }

    func testAnEmptyRoomIsAnEmptyDrawing() throws {
        let empty = LayoutExport(room: "empty", tick: 0, defaultRadius: 5, cells: [], links: [])
        let seen = try parse(empty)
        XCTAssertEqual(seen.named("circle").count, 0)
        XCTAssertEqual(seen.named("line").count, 0)
        XCTAssertEqual(seen.named("text").count, 0)
        XCTAssertEqual(seen.texts, ["empty"])
        XCTAssertNotNil(seen.named("svg").first?["viewBox"])
    }

    func testALargerRoomCountsMatchAndNumbersAreShort() throws {
        var random = SystemRandomNumberGenerator()
        let cells = (1...500).map { cell(CellID($0), Double.random(in: -1e4...1e4, using: &random), Double.random(in: -1e4...1e4, using: &random)) }
        let links = (2...500).map { Link(source: CellID($0), target: CellID($0 / 2)) }
        let seen = try parse(LayoutExport(room: "big", tick: 1, defaultRadius: 5, cells: cells, links: links))
        XCTAssertEqual(seen.named("circle").count, 500)
        XCTAssertEqual(seen.named("line").count, 499)
        for value in seen.named("circle").flatMap({ [$0["cx"]!, $0["cy"]!] }) {
            XCTAssertFalse(value.contains("e"), value)
            XCTAssertLessThanOrEqual(value.split(separator: ".").dropFirst().first?.count ?? 0, 2, value)
        }
    }

    func testNumbersToTheHundredth() {
        XCTAssertEqual([0, -0.0, 1, -1, 0.5, 0.05, -0.07, 12.346, 12.3449, 1e7, -2.999, .nan, .infinity].map(SVGDrawing.number),
                       ["0", "0", "1", "-1", "0.5", "0.05", "-0.07", "12.35", "12.34", "10000000", "-3", "0", "0"])
    }
}
