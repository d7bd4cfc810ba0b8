/// GEXF 1.2 (the `1.2draft` namespace, which Gephi and networkx's `read_gexf` both read):
/// nodes with `label`, the `group` as an attribute, and `viz:position`, `viz:size` (the
/// radius) and `viz:color` (when the cell has one); links as undirected edges with their
/// `distance` and `strength` as attributes. y is flipped: Gephi's y points up, the page's down.
enum GEXF {
    static func encode(_ export: LayoutExport) -> [UInt8] {
        var out = XMLText(reservingCapacity: 512 + export.cells.count * 200 + export.links.count * 120)
        out.raw("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gexf xmlns="http://www.gexf.net/1.2draft" xmlns:viz="http://www.gexf.net/1.2draft/viz" version="1.2">
          <meta><creator>forcelayout</creator><description>
        """)
        out.text("room \(export.room) at tick \(export.tick)")
        out.raw("""
        </description></meta>
          <graph defaultedgetype="undirected" mode="static">
            <attributes class="node"><attribute id="group" title="group" type="string"/></attributes>
            <attributes class="edge"><attribute id="distance" title="distance" type="double"/><attribute id="strength" title="strength" type="double"/></attributes>
            <nodes>

        """)
        for cell in export.cells { node(cell, defaultRadius: export.defaultRadius, into: &out) }
        out.raw("    </nodes>\n    <edges>\n")
        for (index, link) in export.links.enumerated() {
            out.raw("      <edge id=\"\(index)\" source=\"\(link.source)\" target=\"\(link.target)\"><attvalues>")
            out.raw("<attvalue for=\"distance\" value=\"\(JSONText.number(link.distance))\"/>")
            if let strength = link.strength { out.raw("<attvalue for=\"strength\" value=\"\(JSONText.number(strength))\"/>") }
            out.raw("</attvalues></edge>\n")
        }
        out.raw("    </edges>\n  </graph>\n</gexf>\n")
        return out.bytes
    }

    private static func node(_ cell: LayoutExport.Cell, defaultRadius: Double, into out: inout XMLText) {
        out.raw("      <node id=\"\(cell.id)\" label=\"")
        out.text(cell.data.label ?? String(cell.id))
        out.raw("\">")
        if let group = cell.data.group {
            out.raw("<attvalues><attvalue for=\"group\" value=\"")
            out.text(group)
            out.raw("\"/></attvalues>")
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
/// cannot hold as is, and replaces what XML 1.0 cannot hold at all (U+FFFE, U+FFFF, control characters) with U+FFFD.
struct XMLText {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func text(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": raw("&amp;")
            case "<": raw("&lt;")
            case ">": raw("&gt;")
            case "\"": raw("&quot;")
            case "'": raw("&apos;")
            case "\u{FFFE}", "\u{FFFF}": raw("\u{FFFD}")
            default:
                if scalar.value < 0x20 { raw("\u{FFFD}") } else { bytes.append(contentsOf: String(scalar).utf8) }
            }
        }
    }
}
