import ForceLayout

/// The whole layout as an SVG 1.1 drawing, as the page draws it in its light scheme: a
/// background rect, links as lines under the cells in the page's link colour, cells as
/// circles with their radius (their own, else the default) and colour (`CellColors`: their
/// own, else their group's, else their owner's), labels centred on their cells, and the room
/// as the `<title>`. The viewBox frames every cell with a margin; y points down as on the
/// page. Coordinates in layout units, to 0.01.
enum SVGDrawing {
    /// The page's light scheme (Public/style.css :root): --canvas-bg, --link, --fg.
    static let background = "#fbfbfc"
    static let linkColor = "#475569"
    static let labelColor = "#1d2330"
    /// Labels 0.6 of a default cell's radius tall: every label is drawn (a drawing is zoomed
    /// into rather than thinned as the page's canvas is), so they stay small beside the cells.
    static let labelScale = 0.6
    /// The drawing's size in pixels (`width`, `height`): its larger side at least this, so a
    /// small room does not open as a thumbnail; a larger one keeps one pixel per unit.
    static let minimumPixels = 1200.0

    struct Frame: Equatable {
        var x: Double, y: Double, width: Double, height: Double
    }

    static func encode(_ export: LayoutExport) -> [UInt8] {
        var out = XMLText(reservingCapacity: 512 + export.cells.count * 90 + export.links.count * 70)
        let frame = frame(of: export)
        let colors = CellColors.colors(of: export.cells.map {
            CellColors.Cell(owner: export.owner(of: $0.id), color: $0.data.color, group: $0.data.group)
        })
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"")
        let pixels = max(1, minimumPixels / max(frame.width, frame.height))
        out.raw(" width=\"\(number(frame.width * pixels))\" height=\"\(number(frame.height * pixels))\"")
        out.raw(" viewBox=\"\(number(frame.x)) \(number(frame.y)) \(number(frame.width)) \(number(frame.height))\">\n")
        out.raw("<title>")
        out.text(export.room, droppingInvalid: true)
        out.raw("</title>\n<desc>")
        out.text("forcelayout room \(export.room) at tick \(export.tick): \(export.cells.count) cells, \(export.links.count) links", droppingInvalid: true)
        out.raw("</desc>\n")
        out.raw("<rect x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" height=\"\(number(frame.height))\" fill=\"\(background)\"/>\n")
        let places = Dictionary(uniqueKeysWithValues: export.cells.map { ($0.id, ($0.x, $0.y)) })
        out.raw("<g id=\"links\" stroke=\"\(linkColor)\" stroke-width=\"\(number(strokeWidth(export)))\" fill=\"none\">\n")
        for link in export.links {
            guard let a = places[link.source], let b = places[link.target] else { continue }
            out.raw("<line x1=\"\(number(a.0))\" y1=\"\(number(a.1))\" x2=\"\(number(b.0))\" y2=\"\(number(b.1))\"/>\n")
        }
        out.raw("</g>\n<g id=\"cells\" stroke=\"none\">\n")
        for (cell, color) in zip(export.cells, colors) {
            out.raw("<circle cx=\"\(number(cell.x))\" cy=\"\(number(cell.y))\" r=\"\(number(radius(of: cell, export)))\" fill=\"\(color.hex)\"/>\n")
        }
        out.raw("</g>\n")
        let labelled = export.cells.filter { !($0.data.label ?? "").isEmpty }
        if !labelled.isEmpty {
            out.raw("<g id=\"labels\" font-family=\"system-ui, sans-serif\" font-size=\"\(number(export.defaultRadius * labelScale))\"")
            out.raw(" fill=\"\(labelColor)\" text-anchor=\"middle\" dominant-baseline=\"central\">\n")
            for cell in labelled {
                out.raw("<text x=\"\(number(cell.x))\" y=\"\(number(cell.y))\">")
                out.text(cell.data.label ?? "", droppingInvalid: true)
                out.raw("</text>\n")
            }
            out.raw("</g>\n")
        }
        out.raw("</svg>\n")
        return out.bytes
    }

    static func radius(of cell: LayoutExport.Cell, _ export: LayoutExport) -> Double {
        cell.radius.flatMap { $0 > 0 ? $0 : nil } ?? export.defaultRadius
    }

    /// Links a twentieth of the default cell across (at least 0.25): hairlines, as the page's
    /// one-pixel lines are beside its cells.
    static func strokeWidth(_ export: LayoutExport) -> Double { max(0.25, export.defaultRadius / 10) }

    /// Every cell's circle with a margin of a tenth of the larger side (at least four default
    /// radii, so labels at the edges show); an empty room: a square around the origin.
    static func frame(of export: LayoutExport) -> Frame {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for cell in export.cells where cell.x.isFinite && cell.y.isFinite {
            let r = radius(of: cell, export)
            minX = min(minX, cell.x - r)
            minY = min(minY, cell.y - r)
            maxX = max(maxX, cell.x + r)
            maxY = max(maxY, cell.y + r)
        }
        let unit = max(export.defaultRadius, 1)
        guard minX <= maxX else { return Frame(x: -25 * unit, y: -25 * unit, width: 50 * unit, height: 50 * unit) }
        let margin = max(4 * unit, 0.1 * max(maxX - minX, maxY - minY))
        // rounded outwards to the writer's precision, so the frame holds every circle as written
        let x = floor100(minX - margin), y = floor100(minY - margin)
        return Frame(x: x, y: y, width: ceil100(maxX + margin - x), height: ceil100(maxY + margin - y))
    }

    private static func floor100(_ v: Double) -> Double { (v * 100).rounded(.down) / 100 }
    private static func ceil100(_ v: Double) -> Double { (v * 100).rounded(.up) / 100 }

    /// A coordinate to 0.01, without exponent or trailing zeros ("12.5", "-3", "0.07").
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int64((min(max(value, -1e15), 1e15) * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let whole = magnitude / 100, fraction = magnitude % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(sign)\(whole).\(digits)"
    }
}
