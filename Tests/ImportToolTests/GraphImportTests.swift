import ForceLayout
import XCTest
@testable import ImportTool
@testable import LayoutCore

final class GraphImportTests: XCTestCase {
    private func read(_ text: String) throws -> GraphFile { try GraphFile.read(Array(text.utf8)) }

    func testNodeLinkJSONAsNetworkxAndD3WriteIt() throws {
        let graph = try read(##"""
        {"directed":false,"nodes":[{"id":"Myriel","group":1},{"id":"Napoleon","group":"1","color":"#AA0000","radius":9,"x":3,"y":4},
         {"id":7,"name":"Seven"},{"id":"Napoleon"},{"id":8,"label":"x","color":"red","radius":500}],
         "links":[{"source":"Napoleon","target":"Myriel","value":1},{"source":"Myriel","target":"Napoleon"},
                  {"source":7,"target":7},{"source":"Myriel","target":"Nobody"},{"source":2,"target":0,"distance":50,"strength":0.5}]}
        """##)
        XCTAssertEqual(graph.nodes.map(\.key), ["Myriel", "Napoleon", "7", "8"])
        XCTAssertEqual(graph.nodes.map(\.cell.data.label), ["Myriel", "Napoleon", "Seven", "x"])
        XCTAssertEqual(graph.nodes[0].cell.data.group, "1")
        XCTAssertEqual(graph.nodes[1].cell, NewCell(seed: CellSeed(x: 3, y: 4, radius: 9),
                                                   data: CellData(label: "Napoleon", color: "#aa0000", group: "1", key: .string("Napoleon"))))
        // Ids kept as keys, of their type; what is not drawn kept as attributes (`name` too,
        // and a colour or radius that could not be drawn).
        XCTAssertEqual(graph.nodes.map(\.cell.data.key), [.string("Myriel"), .string("Napoleon"), .number(7), .number(8)])
        XCTAssertEqual(graph.nodes.map { $0.cell.data.attrs.map { String(decoding: $0.bytes, as: UTF8.self) } },
                       [nil, nil, #"{"name":"Seven"}"#, #"{"color":"red","radius":500}"#])
        XCTAssertEqual(graph.edges, [GraphFile.Edge(source: 1, target: 0, attrs: Attrs(bytes: Array(#"{"value":1}"#.utf8))),
                                     GraphFile.Edge(source: 2, target: 0, distance: 50, strength: 0.5)])
        XCTAssertEqual(graph.notes, ["1 node(s) left out: their id repeats an earlier node's", "1 colour(s) kept as attributes only: not \"#rrggbb\"",
                                     "1 radius(s) left out: not a number in [1, 200]", "1 repeated link(s) left out (two cells link once)",
                                     "1 self link(s) left out (a cell cannot link to itself)", "1 link(s) left out: an end names no node"])
    }

    func testEdgeListsWithHeadersTabsCommasSpacesAndQuotes() throws {
        let csv = try read("Source,Target,Weight\n\"Valjean, Jean\",Javert,1\nJavert,Fantine\n# a comment\n\nFantine\n")
        XCTAssertEqual(csv.nodes.map(\.key), ["Valjean, Jean", "Javert", "Fantine"])
        XCTAssertEqual(csv.edges.count, 2)
        XCTAssertEqual(csv.notes, ["1 line(s) left out: fewer than two columns"])
        XCTAssertEqual(try GraphFile.read([0xef, 0xbb, 0xbf] + Array("ａ,b\n".utf8)).nodes.map(\.key), ["ａ", "b"])
        let tsv = try read("0\t1\n1\t2\r\n")
        XCTAssertEqual(tsv.nodes.map(\.cell.data.label), ["0", "1", "2"])
        let spaces = try read("a  b {}\nb c {'weight': 3}\n")
        XCTAssertEqual(spaces.nodes.map(\.key), ["a", "b", "c"])
        XCTAssertThrowsError(try read("alone\n")) { XCTAssertTrue("\($0)".contains("no links"), "\($0)") }
        XCTAssertThrowsError(try read("{\"links\":[]}")) { XCTAssertTrue("\($0)".contains("nodes"), "\($0)") }
        let long = try read("\(String(repeating: "é", count: 90)),b\n")
        XCTAssertEqual(long.nodes[0].cell.data.label?.unicodeScalars.count, 80)
        XCTAssertEqual(long.notes, ["1 label(s) cut to 80 characters"])
    }

    /// Records and fields as RFC 4180 has them: quoted fields hold separators, line breaks and
    /// `""`; a quote inside an unquoted field stays; tabs, else commas, else runs of spaces.
    func testRecordsAndFieldsAreReadAsRFC4180Says() {
        let cases: [(String, [[String]])] = [
            ("a,b\n", [["a", "b"]]),
            ("a, b ,c\r\n\r\nd,e\re,f", [["a", "b", "c"], ["d", "e"], ["e", "f"]]),
            ("a,,b\na,b,\n,a\n", [["a", "", "b"], ["a", "b", ""], ["", "a"]]),
            ("a\tb\t3\n x\ty,z \n", [["a", "b", "3"], ["x", "y,z"]]),
            (" a  b   c \n\t\n", [["a", "b", "c"]]),
            ("\"Valjean, Jean\",Javert\n", [["Valjean, Jean", "Javert"]]),
            ("\"say \"\"hi\"\"\",b\n", [["say \"hi\"", "b"]]),
            ("\"two\nlines\",b\nc,d\n", [["two\nlines", "b"], ["c", "d"]]),
            ("5\" disk,b\n", [["5\" disk", "b"]]),
            ("\"a b\" c\n", [["a b", "c"]]),
            ("# a, \"comment\na,b\n", [["a", "b"]]),
            ("\"\",b\n", [["", "b"]]),
            ("\"open,b\nc,d", [["open,b\nc,d"]]),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(DelimitedText.records(text), expected, text)
        }
    }

    func testAQuotedNameWithQuotesAndALineBreakIsOneNode() throws {
        let graph = try read("source,target,kind\n\"The \"\"Bishop\"\"\",\"Jean\nValjean\",\"friend, old\"\n")
        XCTAssertEqual(graph.nodes.map(\.key), ["The \"Bishop\"", "Jean\nValjean"])
        XCTAssertEqual(graph.edges.count, 1)
    }

    /// A link's `weight` is its strength over the heaviest; a strength of its own wins; a
    /// weight that is not a number at least 0 anywhere leaves every strength unset.
    func testWeightsAreStrengths() throws {
        XCTAssertEqual(try read("a b 2\nb c 8\nc d 0\n").edges.map(\.strength), [0.25, 1, 0])
        let mixed = try read(#"{"nodes":[{"id":1},{"id":2},{"id":3}],"links":[{"source":1,"target":2,"weight":3,"strength":0.1},{"source":2,"target":3,"weight":6},{"source":1,"target":3}]}"#)
        XCTAssertEqual(mixed.edges.map(\.strength), [0.1, 1, nil])
        XCTAssertEqual(try read("a b 2\nb c heavy\n").edges.map(\.strength), [nil, nil])
        XCTAssertEqual(try read("a b 2\nb c -1\n").edges.map(\.strength), [nil, nil])
        XCTAssertEqual(try read("a b 0\nb c 0\n").edges.map(\.strength), [nil, nil])
    }

    /// The session against a scripted server: batches within the limits, ids from `added`,
    /// links by those ids, a refused link batch noted and passed.
    func testTheSessionSendsBatchesWithinTheLimitsAndMapsIDs() throws {
        let nodes = (0..<5).map { "{\"id\":\"n\($0)\",\"label\":\"\(String(repeating: "x", count: 60))\"}" }.joined(separator: ",")
        let graph = try read(#"{"nodes":[\#(nodes)],"links":[{"source":"n0","target":"n1"},{"source":"n1","target":"n2"},{"source":"n3","target":"n4"}]}"#)
        var session = ImportSession(graph: graph, window: 1)
        func message(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }
        func sent(_ action: ImportSession.Action) -> JSONValue {
            guard case .send(let messages) = action, messages.count == 1, let bytes = messages.first else { XCTFail("\(action)"); return .null }
            XCTAssertLessThanOrEqual(bytes.count, 400)
            return try! JSONParser.parse(bytes)
        }
        var first = sent(session.received(message(#"{"type":"hello","client":"c3","limits":{"maxAddPerMessage":2,"maxMessageBytes":400}}"#)))
        XCTAssertEqual(first["cells"].flatMap { if case .array(let a) = $0 { a.count } else { nil } }, 2)
        XCTAssertEqual(session.received(message(#"{"type":"event","kind":"added","by":"c9","ids":[1,2]}"#)), .wait)
        first = sent(session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[10,11]}"#)))
        first = sent(session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[12,13]}"#)))
        guard case .send(let messages) = session.received(message(#"{"type":"event","kind":"added","by":"c3","ids":[14]}"#)),
              let links = messages.first else {
            return XCTFail("no links sent")
        }
        XCTAssertTrue(String(decoding: links, as: UTF8.self).contains(#"{"source":10,"target":11}"#), "no distance given: none sent (the room's edgeLength)")
        _ = sent(session.received(message(#"{"type":"error","code":"bad_request","message":"cells 10 and 11 are already linked","ref":"import-4"}"#)))
        guard case .finished(let summary) = session.received(message(#"{"type":"event","kind":"linked","by":"c3"}"#)) else {
            return XCTFail("not finished")
        }
        XCTAssertEqual(summary.cells, 5)
        XCTAssertEqual(summary.links, 1)
        XCTAssertEqual(summary.notes, ["ids and attributes not kept: the server does not keep them (it is older)",
                                       "2 link(s) refused by the server: cells 10 and 11 are already linked"])
    }
}
