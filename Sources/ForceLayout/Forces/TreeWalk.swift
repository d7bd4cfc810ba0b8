extension BarnesHut {
    /// Fills `lists` for one group: the nodes far enough from its cells' box to act through
    /// their expansion, and the cells of the leaves (its own included) to sum exactly.
    func interactions(of group: PackedNode, _ view: TreeView, _ stack: UnsafeMutableBufferPointer<Int32>,
                      _ lists: inout InteractionLists) {
        let box = boundingBox(of: group, view)
        lists.reset(originX: group.centerX, originY: group.centerY)
        let theta2 = theta * theta
        stack[0] = 0
        var top = 1
        while top > 0 {
            top -= 1
            let index = stack[top]
            let node = view.nodes[Int(index)]
            if node.isLeaf {
                lists.addNear(Int(node.start)..<Int(node.start + node.count), view.xs, view.ys)
                continue
            }
            // The group or an ancestor holds its cells: never use its expansion.
            let ancestor = Swift.abs(group.centerX - node.centerX) <= node.half
                && Swift.abs(group.centerY - node.centerY) <= node.half
            let dx = Swift.max(box.minX - node.massX, 0, node.massX - box.maxX)
            let dy = Swift.max(box.minY - node.massY, 0, node.massY - box.maxY)
            let width = 2 * node.half
            if !ancestor && width * width < theta2 * (dx * dx + dy * dy) {
                lists.addFar(node, index: index)
            } else {
                for c in node.occupiedChildren {
                    stack[top] = c
                    top += 1
                }
            }
        }
        lists.pad()
    }

    /// The smallest box around the cells of `group`.
    private func boundingBox(of group: PackedNode, _ view: TreeView)
        -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let start = Int(group.start), end = start + Int(group.count)
        var minX = view.xs[start], maxX = minX, minY = view.ys[start], maxY = minY
        for k in start..<end {
            minX = Swift.min(minX, view.xs[k]); maxX = Swift.max(maxX, view.xs[k])
            minY = Swift.min(minY, view.ys[k]); maxY = Swift.max(maxY, view.ys[k])
        }
        return (minX, maxX, minY, maxY)
    }
}
