/// The span a recording covers (`GET /export/NAME.flhistory?from=MS&to=MS`): times in ms since
/// 1970, either left out (from the oldest moment kept, to the newest). Pure.
package struct HistorySpan: Equatable, Sendable {
    package let from: Int?
    package let to: Int?

    package init(from: Int?, to: Int?) {
        self.from = from
        self.to = to
    }

    /// The span the query's `from` and `to` name, or why they name none (in words for a 400).
    package static func parse(from: String?, to: String?) -> Result<HistorySpan, Refusal> {
        var times: [Int?] = []
        for (name, text) in [("from", from), ("to", to)] {
            guard let text else {
                times.append(nil)
                continue
            }
            guard let time = time(text) else {
                return .failure(Refusal(description: "\(name) must be a time in ms since 1970 (digits only, as the history's at), not \"\(text.prefix(32))\""))
            }
            times.append(time)
        }
        if let start = times[0], let end = times[1], start > end {
            return .failure(Refusal(description: "from (\(start)) is after to (\(end))"))
        }
        return .success(HistorySpan(from: times[0], to: times[1]))
    }

    /// Digits only, at most 15 of them (ms since 1970 until the year 33658).
    private static func time(_ text: String) -> Int? {
        guard (1...15).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package let description: String
    }
}
