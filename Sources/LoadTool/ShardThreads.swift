import Foundation

/// Runs one body per shard, each on a thread of its own, and collects what they return.
final class ShardThreads: @unchecked Sendable {
    private let lock = NSLock()
    private let group = DispatchGroup()
    private var results: [Int: Result<ShardResult, LoadClients.Failure>] = [:]

    init(parts: [ShardPart], body: @escaping @Sendable (ShardPart) -> Result<ShardResult, LoadClients.Failure>) {
        for part in parts {
            group.enter()
            let thread = Thread { [self] in
                let result = body(part)
                lock.lock()
                results[part.index] = result
                lock.unlock()
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Waits for every shard; their results in shard order, or the first failure.
    func join() throws(LoadClients.Failure) -> [ShardResult] {
        group.wait()
        lock.lock()
        defer { lock.unlock() }
        var collected: [ShardResult] = []
        for index in results.keys.sorted() {
            switch results[index]! {
            case .success(let result): collected.append(result)
            case .failure(let failure): throw failure
            }
        }
        return collected
    }
}
