import ForceLayout
import XCTest
@testable import LayoutCore
@testable import LayoutServer

final class ExportTests: XCTestCase {
    private let export = LayoutExport(
        room: "r", tick: 7, defaultRadius: 10,
        cells: [.init(id: 1, x: 1.5, y: 2, pinned: true, data: CellData(label: "a\"<&>'\u{FFFE}", color: "#0a0b0c", group: "g"), radius: nil),
                .init(id: 2, x: 0, y: -3, pinned: false, data: CellData(), radius: 4)],
        links: [Link(source: 1, target: 2, distance: 12)])

    func testNodeLinkJSONHasEveryFieldOnlyWhenSet() {
        XCTAssertEqual(String(decoding: export.encoded(as: .json), as: UTF8.self),
                       ##"{"directed":false,"multigraph":false,"graph":{"room":"r","tick":7},"nodes":[{"id":1,"label":"a\"<&>'\##u{FFFE}","color":"#0a0b0c","group":"g","x":1.5,"y":2,"pinned":true},{"id":2,"radius":4,"x":0,"y":-3}],"links":[{"source":1,"target":2,"distance":12}]}"##)
    }

    func testGEXFEscapesLabelsFlipsYAndSizesByRadius() {
        let text = String(decoding: export.encoded(as: .gexf), as: UTF8.self)
        XCTAssertTrue(text.contains(#"<node id="1" label="a&quot;&lt;&amp;&gt;&apos;\#u{FFFD}">"#), text)
        XCTAssertTrue(text.contains(#"<viz:size value="10"/><viz:position x="1.5" y="-2" z="0.0"/><viz:color r="10" g="11" b="12"/>"#), text)
        XCTAssertTrue(text.contains(#"<viz:size value="4"/><viz:position x="0" y="3" z="0.0"/></node>"#), text)
        XCTAssertTrue(text.contains(#"<edge id="0" source="1" target="2"><attvalues><attvalue for="distance" value="12"/></attvalues></edge>"#), text)
    }

    func testExportAddressesAreARoomNameAndAFormat() {
        XCTAssertEqual(Server.exportAddress("/les-mis.gexf").map { "\($0.0).\($0.1.rawValue)" }, "les-mis.gexf")
        for bad in ["/x.csv", "/x", "/X.json", "/a/b.json", "/.json", "x.json"] {
            XCTAssertNil(Server.exportAddress(bad), bad)
        }
    }
}
