/// Places a level's components side by side (shelf packing of their bounding boxes,
/// tallest first, in rows about as wide as the whole is tall), each moved rigidly, the
/// whole centered where the components' centre was. What Graphviz's `pack` does for sfdp's
/// disconnected graphs; without it, pieces that do not repel each other would lie on top
/// of one another, and pieces that did would fly apart. Pure.
enum ComponentPacking {
    /// Moves the components' nodes in `xs`, `ys`; `gap` between neighbours (and a lone
    /// node's box is `gap` wide). Nodes in `fixed` components (holding a pinned cell) stay
    /// where they are, and the rest are packed beside them.
    static func pack(xs: inout [Double], ys: inout [Double], components: Components, gap: Double,
                     fixed: [Bool] = []) {
        let count = components.count
        guard count > 1 else { return }
        let (boxes, sumX, sumY) = bounds(of: components, xs: xs, ys: ys)
        let n = Double(xs.count)
        let centre = (x: sumX / n, y: sumY / n)
        let movable = (0..<count).filter { fixed.isEmpty || !fixed[$0] }
        guard movable.count > 1 || movable.count < count else { return }
        let area = movable.reduce(0.0) { $0 + (boxes[$1].width + gap) * (boxes[$1].height + gap) }
        let rowWidth = Swift.max(area.squareRoot(), movable.map { boxes[$0].width + gap }.max() ?? gap)
        let order = movable.sorted { (boxes[$0].height, boxes[$1].width, $1) > (boxes[$1].height, boxes[$0].width, $0) }
        let (placed, totalHeight) = shelves(order, boxes: boxes, rowWidth: rowWidth, gap: gap)
        var anchor = (x: centre.x - rowWidth / 2, y: centre.y - totalHeight / 2)
        if movable.count < count {
            // Beside what stays: below the fixed components' boxes.
            let fixedBoxes = (0..<count).filter { fixed[$0] }.map { boxes[$0] }
            let bottom = fixedBoxes.map(\.maxY).max()!, left = fixedBoxes.map(\.minX).min()!
            anchor = (left, bottom + gap)
        }
        for c in movable {
            let dx = anchor.x + placed[c].x - boxes[c].minX, dy = anchor.y + placed[c].y - boxes[c].minY
            for node in components.nodes(of: c) {
                xs[Int(node)] += dx
                ys[Int(node)] += dy
            }
        }
    }

    /// The bounding box of each component's nodes, and the sums of all nodes' x and y.
    private static func bounds(of components: Components, xs: [Double], ys: [Double])
        -> (boxes: [Bounds], sumX: Double, sumY: Double) {
        let count = components.count
        var boxes: [Bounds] = []
        boxes.reserveCapacity(count)
        var sumX = 0.0, sumY = 0.0
        for c in 0..<count {
            var box = Bounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for node in components.nodes(of: c) {
                let x = xs[Int(node)], y = ys[Int(node)]
                box.minX = Swift.min(box.minX, x); box.maxX = Swift.max(box.maxX, x)
                box.minY = Swift.min(box.minY, y); box.maxY = Swift.max(box.maxY, y)
                sumX += x; sumY += y
            }
            boxes.append(box)
        }
        return (boxes, sumX, sumY)
    }

    /// Where the boxes of the components in `order` go, from the packing's top left corner:
    /// in rows left to right, top to bottom, a row at most `rowWidth` wide unless its first
    /// box is wider; the first component of a row sets its height. Also the packing's height.
    private static func shelves(_ order: [Int], boxes: [Bounds], rowWidth: Double, gap: Double)
        -> (placed: [(x: Double, y: Double)], height: Double) {
        var placed = [(x: Double, y: Double)](repeating: (0, 0), count: boxes.count)
        var x = 0.0, y = 0.0, rowHeight = 0.0
        for c in order {
            let box = boxes[c]
            if x > 0 && x + box.width > rowWidth {
                y += rowHeight + gap
                x = 0
                rowHeight = 0
            }
            placed[c] = (x, y)
            x += box.width + gap
            rowHeight = Swift.max(rowHeight, box.height)
        }
        return (placed, y + rowHeight)
    }
}
