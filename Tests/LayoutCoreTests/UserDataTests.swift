import ForceLayout
import Foundation
import XCTest
@testable import LayoutCore

/// Cells' `key` and `attrs`, links' `attrs`: the decoder (valid and hostile), the layout state
/// (kept, edited, dropped with their link or cell), the wire, state files and the exports.
final class UserDataTests: XCTestCase {
    private func decode(_ text: String, maxAttrBytes: Int = 1024) -> Result<LayoutCommand, ProtocolError> {
        var limits = Limits()
        limits.maxAttrBytes = maxAttrBytes
        return MessageDecoder(limits: limits).decode(Array(text.utf8)).map { request in
            guard case .layout(let command) = request.message else { return .clear }
            return command
        }
    }

    private func attrs(_ text: String) -> Attrs { Attrs(bytes: Array(text.utf8)) }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testKeysAndAttrsAreDecodedCanonically() throws {
        let command = try decode(#"{"type":"add","cells":[{"key":0,"attrs":{ "club" : "Mr. Hi", "w": 4.0, "n": [1e2, null, true, {"x": -0.5}] }},{"key":"Napoleon","attrs":{}}]}"#).get()
        guard case .addCells(let cells, _) = command else { return XCTFail("\(command)") }
        XCTAssertEqual(cells.map(\.data.key), [.number(0), .string("Napoleon")])
        XCTAssertEqual(cells[0].data.attrs, attrs(#"{"club":"Mr. Hi","w":4,"n":[100,null,true,{"x":-0.5}]}"#))
        XCTAssertNil(cells[1].data.attrs, "{} is no attrs")
        // Numbers as the server writes them (the page's importbatch.js serverSize counts on it).
        let numbers = try decode(#"{"type":"add","cells":[{"attrs":{"a":1e-7,"b":0.5,"c":1e21}}]}"#).get()
        XCTAssertEqual(numbers, .addCells([NewCell(data: CellData(attrs: attrs(#"{"a":1e-07,"b":0.5,"c":1e+21}"#)))], spawn: .random))
        let link = try decode(#"{"type":"link","links":[{"source":1,"target":2,"attrs":{"weight":4}}]}"#).get()
        XCTAssertEqual(link, .link([LinkRecord(Link(source: 1, target: 2), attrs: attrs(#"{"weight":4}"#))]))
        let update = try decode(#"{"type":"update","cells":[{"id":1,"key":null,"attrs":{}},{"id":2,"key":"k","attrs":{"a":1}},{"id":3,"attrs":null}]}"#).get()
        guard case .update(let edits) = update else { return XCTFail("\(update)") }
        XCTAssertEqual(edits.map(\.key), [.reset, .set(.string("k")), .keep])
        XCTAssertEqual(edits.map(\.attrs), [.reset, .set(attrs(#"{"a":1}"#)), .reset])
        // Encoded again as the CLI sends them, they decode to the same.
        for command in [command, link, update] {
            XCTAssertEqual(try decode(text(ClientRequest(.layout(command)).encoded)).get(), command)
        }
    }

    func testHostileKeysAndAttrsAreRefusedWithClearErrors() {
        let long = String(repeating: "é", count: 101)  // 202 bytes
        let deep = String(repeating: "[", count: 8) + "1" + String(repeating: "]", count: 8)
        let cases: [(String, ProtocolError.Code, String)] = [
            (#"{"type":"add","cells":[{"key":true}]}"#, .badRequest, "key must be a string or a number, not a boolean"),
            (#"{"type":"add","cells":[{"key":[1]}]}"#, .badRequest, "key must be a string or a number"),
            (#"{"type":"add","cells":[{"key":1e400}]}"#, .badRequest, "key must be a finite number"),
            (#"{"type":"add","cells":[{"key":"\#(long)"}]}"#, .badRequest, "at most 200 bytes"),
            (#"{"type":"add","cells":[{"attrs":[1]}]}"#, .badRequest, "attrs must be an object, not an array"),
            (#"{"type":"add","cells":[{"attrs":"x"}]}"#, .badRequest, "attrs must be an object"),
            (#"{"type":"add","cells":[{"attrs":{"a":\#(deep)}}]}"#, .badRequest, "nested at most 8 deep"),
            (#"{"type":"add","cells":[{"attrs":{"a":-1e999}}]}"#, .badRequest, "finite numbers only"),
            (#"{"type":"add","cells":[{"attrs":{"a":"\#(String(repeating: "x", count: 60))"}}]}"#, .limit, "over maxAttrBytes (64)"),
            (#"{"type":"link","links":[{"source":1,"target":2,"attrs":{"a":"\#(String(repeating: "x", count: 60))"}}]}"#, .limit, "maxAttrBytes"),
            (#"{"type":"link","links":[{"source":1,"target":2,"attrs":7}]}"#, .badRequest, "must be an object"),
            (#"{"type":"update","cells":[{"id":1,"attrs":{"a":"\#(String(repeating: "x", count: 60))"}}]}"#, .limit, "maxAttrBytes"),
            (#"{"type":"update","cells":[{"id":1,"key":{}}]}"#, .badRequest, "key must be"),
        ]
        for (message, code, says) in cases {
            switch decode(message, maxAttrBytes: 64) {
            case .success(let command): XCTFail("accepted \(message): \(command)")
            case .failure(let error):
                XCTAssertEqual(error.code, code, message)
                XCTAssertTrue(error.message.contains(says), "\(message): \(error.message)")
            }
        }
        // Seven levels inside attrs (eight with it) is within the bound.
        let seven = String(repeating: "[", count: 7) + "1" + String(repeating: "]", count: 7)
        XCTAssertNoThrow(try decode(#"{"type":"add","cells":[{"attrs":{"a":\#(seven)}}]}"#).get())
    }

    func testTheStateKeepsThemAndDropsLinkAttrsWithTheirLinkOrCell() throws {
        var state = LayoutState(simulation: Simulation(seed: 3), limits: Limits())
        _ = try state.apply(decode(#"{"type":"add","cells":[{"key":0,"attrs":{"club":"Mr. Hi"}},{"key":1},{"key":2}]}"#).get(), from: "c1")
        let linked = try state.apply(decode(#"{"type":"link","links":[{"source":1,"target":2,"attrs":{"weight":4}},{"source":3,"target":2,"attrs":{"weight":5}},{"source":1,"target":3}]}"#).get(), from: "c1")
        XCTAssertTrue(text(linked[0].encodedTail).contains(#""links":[{"source":1,"target":2,"attrs":{"weight":4}},{"source":3,"target":2,"attrs":{"weight":5}},{"source":1,"target":3}]"#), text(linked[0].encodedTail))
        XCTAssertEqual(state.catalog[link: 2, 1], attrs(#"{"weight":4}"#))
        XCTAssertEqual(state.catalog[link: 2, 3], attrs(#"{"weight":5}"#))
        let data = text(DataMessage.encode(records: state.records, links: state.simulation.links, linkAttrs: state.catalog.links))
        XCTAssertTrue(data.contains(#""key":[0,1,2],"attrs":[{"club":"Mr. Hi"},null,null]"#), data)
        XCTAssertTrue(data.contains(#""attrs":[{"weight":4},{"weight":5},null]"#), data)
        _ = try state.apply(.unlink([LinkEnds(source: 2, target: 1)]), from: "c1")
        XCTAssertNil(state.catalog[link: 1, 2])
        _ = try state.apply(.remove(ids: [3]), from: "c1")
        XCTAssertTrue(state.catalog.links.isEmpty)
        // Linked again without attrs: none come back.
        _ = try state.apply(.link([LinkRecord(Link(source: 1, target: 2))]), from: "c1")
        XCTAssertNil(state.catalog[link: 1, 2])
        // update: set, reset; an update to the same is no event.
        let updated = try state.apply(decode(#"{"type":"update","cells":[{"id":1,"key":"zero","attrs":null}]}"#).get(), from: "c1")
        XCTAssertEqual(updated.first?.detail, .updated([CellRecordData(id: 1, data: CellData(key: .string("zero")), radius: nil)]))
        XCTAssertEqual(try state.apply(decode(#"{"type":"update","cells":[{"id":1,"key":"zero"}]}"#).get(), from: "c1"), [])
    }

    func testStateFilesKeepKeysOfTheirTypeAndAttrsByteForByte() throws {
        let simulation = Simulation(seed: 1)
        let ids = simulation.add(count: 3, spawn: .random)
        try simulation.link([Link(source: ids[0], target: ids[1]), Link(source: ids[1], target: ids[2])])
        var catalog = CellCatalog([ids[0]: CellData(key: .number(0), attrs: attrs(#"{"club":"Mr. Hi","n":[1,{"b":null}]}"#)),
                                   ids[1]: CellData(label: "x", key: .string("Napoleon")),
                                   ids[2]: CellData(key: .number(2.5))])
        catalog[link: ids[1], ids[0]] = attrs(#"{"weight":4}"#)
        let state = SavedState(layout: simulation.snapshot(), reservation: 10, catalog: catalog)
        let bytes = StateFile.bytes(of: state)
        XCTAssertTrue(text(bytes).contains(#"{"attrs":{"club":"Mr. Hi","n":[1,{"b":null}]},"id":1,"key":0,"pinned":false"#), text(bytes))
        XCTAssertTrue(text(bytes).contains(#"{"attrs":{"weight":4},"source":1"#), text(bytes))
        let loaded = try StateFile.decode(bytes, path: "test")
        XCTAssertEqual(loaded, state)
        XCTAssertEqual(loaded.catalog[link: ids[0], ids[1]], attrs(#"{"weight":4}"#))
        // Attrs as deep as a client may send them load too.
        var deep = catalog
        deep[ids[2]] = CellData(attrs: attrs(#"{"a":[[[[[[[1]]]]]]]}"#))
        let deepState = SavedState(layout: simulation.snapshot(), reservation: 10, catalog: deep)
        XCTAssertEqual(try StateFile.decode(StateFile.bytes(of: deepState), path: "test"), deepState)
        // Hostile files: a key of the wrong type, attrs that are not an object.
        for bad in [#""key":true"#, #""attrs":[1]"#] {
            let broken = text(bytes).replacingOccurrences(of: #""key":0"#, with: bad)
            XCTAssertThrowsError(try StateFile.decode(Array(broken.utf8), path: "test"), bad)
        }
    }

    private var export: LayoutExport {
        var links = LinkAttributes()
        links[1, 2] = attrs(#"{"weight":4,"distance":99,"kind":"x"}"#)
        links[2, 3] = attrs(#"{"weight":1.5,"kind":7,"on":true}"#)
        return LayoutExport(
            room: "r", tick: 7, defaultRadius: 10,
            cells: [.init(id: 1, x: 1, y: 2, pinned: false,
                          data: CellData(label: "Zero", key: .number(0), attrs: attrs(#"{"club":"Mr. Hi","label":"no","size":3,"tags":["a"]}"#)), radius: nil),
                    .init(id: 2, x: 0, y: 0, pinned: false, data: CellData(key: .string("b"), attrs: attrs(#"{"club":"Officer","size":2.5}"#)), radius: nil),
                    .init(id: 3, x: 0, y: 0, pinned: false, data: CellData(key: .string("b")), radius: nil),
                    .init(id: 4, x: 0, y: 0, pinned: false, data: CellData(key: .number(3)), radius: nil),
                    .init(id: 5, x: 0, y: 0, pinned: false, data: CellData(), radius: nil)],
            links: [Link(source: 1, target: 2), Link(source: 2, target: 3, strength: 0.5)], linkAttrs: links)
    }

    func testNodeIDsAreKeysWithFallbacksThatNeverCollide() {
        // 0 unique; "b" twice (both fall back to their cell ids, 2 and 3, but 3 is a key: "cell 3");
        // 3 unique; cell 5 has no key.
        XCTAssertEqual(export.nodeIDs(), [.number(0), .number(2), .string("cell 3"), .number(3), .number(5)])
    }

    func testNodeLinkJSONWritesKeysAndMergesAttrsUnderOurOwnFields() throws {
        let document = text(export.encoded(as: .json))
        XCTAssertTrue(document.contains(#"{"id":0,"label":"Zero","x":1,"y":2,"club":"Mr. Hi","size":3,"tags":["a"]}"#), document)
        XCTAssertTrue(document.contains(#"{"id":2,"x":0,"y":0,"club":"Officer","size":2.5}"#), document)
        XCTAssertTrue(document.contains(#""links":[{"source":0,"target":2,"weight":4,"distance":99,"kind":"x"},{"source":2,"target":"cell 3","strength":0.5,"weight":1.5,"kind":7,"on":true}]"#), document)
        XCTAssertNoThrow(try JSONParser.parse(Array(document.utf8)))
    }

    func testGEXFDeclaresTypedAttributeColumnsAndWritesWeights() {
        let document = text(export.encoded(as: .gexf))
        // size: 3 and 2.5 -> double; tags: a list -> string (its JSON); label is the node's own.
        XCTAssertTrue(document.contains(#"<attribute id="group" title="group" type="string"/><attribute id="n0" title="club" type="string"/><attribute id="n1" title="size" type="double"/><attribute id="n2" title="tags" type="string"/></attributes>"#), document)
        XCTAssertTrue(document.contains(#"<attribute id="e0" title="kind" type="string"/><attribute id="e1" title="on" type="boolean"/></attributes>"#), document)
        XCTAssertTrue(document.contains(#"<node id="0" label="Zero"><attvalues><attvalue for="n0" value="Mr. Hi"/><attvalue for="n1" value="3.0"/><attvalue for="n2" value="[&quot;a&quot;]"/></attvalues>"#), document)
        XCTAssertTrue(document.contains(#"<node id="cell 3" label="cell 3">"#), document)
        XCTAssertTrue(document.contains(#"<edge id="0" source="0" target="2" weight="4"><attvalues><attvalue for="e0" value="x"/></attvalues></edge>"#), document)
        XCTAssertTrue(document.contains(#"<edge id="1" source="2" target="cell 3" weight="1.5"><attvalues><attvalue for="strength" value="0.5"/><attvalue for="e0" value="7"/><attvalue for="e1" value="true"/></attvalues></edge>"#), document)
    }
}
