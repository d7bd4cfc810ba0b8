/// Mass, center of mass and quadrupole of a node: from its cells for a leaf, from its
/// children for an internal node (which must be complete already).
enum NodeMoments {
    /// A leaf's moments from its cells, `points[node.start ..< node.start + node.count]`.
    @inline(__always)
    static func leaf(_ node: inout PackedNode, _ points: UnsafeMutableBufferPointer<TreePoint>) {
        let range = Int(node.start)..<(Int(node.start) + Int(node.count))
        guard !range.isEmpty else { return }
        var sx = 0.0, sy = 0.0
        for k in range {
            sx += points[k].x
            sy += points[k].y
        }
        let m = Double(range.count)
        let cx = sx / m, cy = sy / m
        var axx = 0.0, ayy = 0.0, axy = 0.0
        for k in range {
            let dx = points[k].x - cx, dy = points[k].y - cy
            axx += 2 * dx * dx - dy * dy
            ayy += 2 * dy * dy - dx * dx
            axy += 3 * dx * dy
        }
        node.mass = m
        node.massX = cx
        node.massY = cy
        (node.qxx, node.qyy, node.qxy) = (axx, ayy, axy)
    }

    /// An internal node's moments from its four children: masses add, centers average, and
    /// the children's quadrupoles move to the new center (parallel-axis theorem).
    @inline(__always)
    static func parent(_ nodes: UnsafeMutableBufferPointer<PackedNode>, _ index: Int) {
        let first = Int(nodes[index].firstChild)
        var m = 0.0, sx = 0.0, sy = 0.0
        for c in first..<(first + 4) where nodes[c].mass > 0 {
            m += nodes[c].mass
            sx += nodes[c].massX * nodes[c].mass
            sy += nodes[c].massY * nodes[c].mass
        }
        guard m > 0 else { return }
        let cx = sx / m, cy = sy / m
        var axx = 0.0, ayy = 0.0, axy = 0.0
        for c in first..<(first + 4) where nodes[c].mass > 0 {
            let child = nodes[c]
            let dx = child.massX - cx, dy = child.massY - cy, mc = child.mass
            axx += child.qxx + mc * (2 * dx * dx - dy * dy)
            ayy += child.qyy + mc * (2 * dy * dy - dx * dx)
            axy += child.qxy + mc * 3 * dx * dy
        }
        nodes[index].mass = m
        nodes[index].massX = cx
        nodes[index].massY = cy
        (nodes[index].qxx, nodes[index].qyy, nodes[index].qxy) = (axx, ayy, axy)
    }
}
