import Foundation

/// Each cell's colour as the page paints it (Public/cellpaint.js): its own `color`, else its
/// group's (the groups of cells without a colour of their own, sorted: numbers by value when
/// both names are numbers, else in the root locale's collation as the page's `localeCompare`,
/// each taking golden-angle hues in that order), else its owner's (`CellPalette.client`; no
/// owner: the neutral grey). Tests/fixtures/palette.json holds cases both sides assert.
package enum CellColors {
    package struct Cell: Sendable {
        var owner: String?
        var color: String?
        var group: String?

        package init(owner: String?, color: String?, group: String?) {
            self.owner = owner
            self.color = color
            self.group = group
        }
    }

    /// The colours of `cells`, in their order.
    package static func colors(of cells: [Cell], scheme: CellPalette.Scheme = .light) -> [CellPalette.RGB] {
        let groups = Set(cells.compactMap { hasColor($0) ? nil : $0.group })
        let index = Dictionary(uniqueKeysWithValues: sortedGroups(groups).enumerated().map { ($1, $0) })
        var groupColors: [Int: CellPalette.RGB] = [:]
        var ownerColors: [String: CellPalette.RGB] = [:]
        return cells.map { cell in
            if let color = cell.color, !color.isEmpty { return CellPalette.hex(color) ?? CellPalette.RGB(128, 128, 128) }
            if let group = cell.group, let i = index[group] {
                if let known = groupColors[i] { return known }
                let rgb = CellPalette.group(i, scheme: scheme)
                groupColors[i] = rgb
                return rgb
            }
            let owner = cell.owner ?? ""
            if let known = ownerColors[owner] { return known }
            let rgb = CellPalette.client(owner, scheme: scheme)
            ownerColors[owner] = rgb
            return rgb
        }
    }

    /// Group names in the page's order.
    package static func sortedGroups(_ groups: Set<String>) -> [String] {
        groups.sorted(by: precedes)
    }

    private static let collation = Locale(identifier: "en")

    /// "2" before "10"; names as strings otherwise (the page's `byName`).
    static func precedes(_ a: String, _ b: String) -> Bool {
        // Equal numbers ("1", "1.0"): the page keeps the order it met them in; here by text.
        if isNumeric(a), isNumeric(b), let x = Double(a), let y = Double(b) { return x != y ? x < y : a < b }
        return a.compare(b, locale: collation) == .orderedAscending
    }

    private static func hasColor(_ cell: Cell) -> Bool { !(cell.color ?? "").isEmpty }

    /// `^-?\d+(\.\d+)?$`
    private static func isNumeric(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        guard !whole.isEmpty else { return false }
        let rest = bytes.dropFirst(whole.count)
        if rest.isEmpty { return true }
        guard rest.first == UInt8(ascii: "."), rest.count > 1 else { return false }
        return rest.dropFirst().allSatisfy(isDigit)
    }
}
