import ForceLayout

/// GEXF 1.2 (the `1.2draft` namespace, which Gephi and networkx's `read_gexf` both read):
/// nodes with their key as `id` (`LayoutExport.nodeIDs`), `label`, the `group` as an
/// attribute, `viz:position`, `viz:size` (the radius) and `viz:color` (when the cell has one);
/// links as undirected edges with their `distance` and `strength` as attributes. The user's
/// `attrs` become attribute columns (`GEXFAttributes`; names the export writes itself are
/// left out), a link's numeric `weight` the edge's `weight`. y is flipped: Gephi's y points
/// up, the page's down.
enum GEXF {
    static let nodeNames: Set<String> = ["label", "group", "viz"]
    static let edgeNames: Set<String> = ["id", "label", "distance", "strength"]

    static func encode(_ export: LayoutExport) -> [UInt8] {
        var out = XMLText(reservingCapacity: 512 + export.cells.count * 200 + export.links.count * 120)
        let ids = export.nodeIDs()
        let byCell = export.nodeIDsByCell()
        let nodeAttrs = GEXFAttributes(export.cells.map(\.data.attrs), prefix: "n") { name, _ in nodeNames.contains(name) }
        let linkAttrs = export.links.map { export.linkAttrs[$0.source, $0.target] }
        let edgeAttrs = GEXFAttributes(linkAttrs, prefix: "e") { name, value in
            if case .number = value, name == "weight" { return true }
            return edgeNames.contains(name)
        }
        header(export, nodeAttributes: nodeAttrs, edgeAttributes: edgeAttrs, into: &out)
        out.raw("    <nodes>\n")
        for (row, cell) in export.cells.enumerated() {
            node(cell, id: ids[row], attributes: nodeAttrs, row: row, defaultRadius: export.defaultRadius, into: &out)
        }
        out.raw("    </nodes>\n    <edges>\n")
        for (index, link) in export.links.enumerated() {
            edge(link, index: index, ends: byCell, attrs: linkAttrs[index], attributes: edgeAttrs, into: &out)
        }
        out.raw("    </edges>\n  </graph>\n</gexf>\n")
        return out.bytes
    }

    /// The XML declaration, the `meta` and the attribute columns of nodes and edges.
    private static func header(_ export: LayoutExport, nodeAttributes: GEXFAttributes, edgeAttributes: GEXFAttributes,
                               into out: inout XMLText) {
        out.raw("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gexf xmlns="http://www.gexf.net/1.2draft" xmlns:viz="http://www.gexf.net/1.2draft/viz" version="1.2">
          <meta><creator>forcelayout</creator><description>
        """)
        out.text("room \(export.room) at tick \(export.tick)")
        out.raw("""
        </description></meta>
          <graph defaultedgetype="undirected" mode="static">
            <attributes class="node"><attribute id="group" title="group" type="string"/>
        """)
        nodeAttributes.declarations(into: &out)
        out.raw("</attributes>\n    <attributes class=\"edge\"><attribute id=\"distance\" title=\"distance\" type=\"double\"/><attribute id=\"strength\" title=\"strength\" type=\"double\"/>")
        edgeAttributes.declarations(into: &out)
        out.raw("</attributes>\n")
    }

    /// Link number `index` as an edge between the node ids of its ends (`ends`: by cell),
    /// with the numeric `weight` of its `attrs` as the edge's weight.
    private static func edge(_ link: Link, index: Int, ends: [CellID: CellKey], attrs: Attrs?,
                             attributes: GEXFAttributes, into out: inout XMLText) {
        out.raw("      <edge id=\"\(index)\" source=\"")
        out.text((ends[link.source] ?? .number(Double(link.source))).text)
        out.raw("\" target=\"")
        out.text((ends[link.target] ?? .number(Double(link.target))).text)
        out.raw("\"")
        if case .number(let weight)? = attrs?.members.first(where: { $0.key == "weight" })?.value {
            out.raw(" weight=\"\(JSONText.number(weight))\"")
        }
        out.raw("><attvalues>")
        if let distance = link.distance { out.raw("<attvalue for=\"distance\" value=\"\(JSONText.number(distance))\"/>") }
        if let strength = link.strength { out.raw("<attvalue for=\"strength\" value=\"\(JSONText.number(strength))\"/>") }
        attributes.values(of: index, into: &out)
        out.raw("</attvalues></edge>\n")
    }

    private static func node(_ cell: LayoutExport.Cell, id: CellKey, attributes: GEXFAttributes, row: Int,
                             defaultRadius: Double, into out: inout XMLText) {
        out.raw("      <node id=\"")
        out.text(id.text)
        out.raw("\" label=\"")
        out.text(cell.data.label ?? id.text)
        out.raw("\">")
        if cell.data.group != nil || !attributes.rows[row].isEmpty {
            out.raw("<attvalues>")
            if let group = cell.data.group {
                out.raw("<attvalue for=\"group\" value=\"")
                out.text(group)
                out.raw("\"/>")
            }
            attributes.values(of: row, into: &out)
            out.raw("</attvalues>")
        }
        out.raw("<viz:size value=\"\(JSONText.number(cell.radius ?? defaultRadius))\"/>")
        out.raw("<viz:position x=\"\(JSONText.number(cell.x))\" y=\"\(JSONText.number(-cell.y))\" z=\"0.0\"/>")
        if let color = cell.data.color, let (r, g, b) = rgb(color) {
            out.raw("<viz:color r=\"\(r)\" g=\"\(g)\" b=\"\(b)\"/>")
        }
        out.raw("</node>\n")
    }

    private static func rgb(_ color: String) -> (Int, Int, Int)? {
        guard let value = Int(color.dropFirst(), radix: 16) else { return nil }
        return ((value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff)
    }
}

/// XML text built up in bytes: `text` escapes what an attribute value or element content
/// cannot hold as is (tabs and line breaks as character references, which an attribute value
/// keeps), and replaces what XML 1.0 cannot hold at all (U+FFFE, U+FFFF, other control
/// characters) with U+FFFD, or drops it (`droppingInvalid`: a drawing's text shows nothing
/// for it).
struct XMLText {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func text(_ text: String, droppingInvalid: Bool = false) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": raw("&amp;")
            case "<": raw("&lt;")
            case ">": raw("&gt;")
            case "\"": raw("&quot;")
            case "'": raw("&apos;")
            case "\t": raw("&#9;")
            case "\n": raw("&#10;")
            case "\r": raw("&#13;")
            case "\u{FFFE}", "\u{FFFF}": if !droppingInvalid { raw("\u{FFFD}") }
            default:
                if scalar.value >= 0x20 {
                    bytes.append(contentsOf: String(scalar).utf8)
                } else if !droppingInvalid {
                    raw("\u{FFFD}")
                }
            }
        }
    }
}
