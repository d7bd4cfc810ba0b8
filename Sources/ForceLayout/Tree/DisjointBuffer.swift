import Dispatch

/// Memory that parallel work items write, each in its own part (its range of cells, its
/// nodes), while no one reads those parts until `DispatchQueue.concurrentPerform` has
/// returned. That discipline is what makes sharing it safe, and the compiler cannot check
/// it: hence `@unchecked Sendable`. Every use says which part each work item owns.
struct DisjointBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
    }

    /// Memory the work items only read.
    init(reading buffer: UnsafeBufferPointer<Element>) {
        self.buffer = UnsafeMutableBufferPointer(mutating: buffer)
    }

    var count: Int { buffer.count }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { buffer[index] }
        nonmutating set { buffer[index] = newValue }
    }

    /// The part `range` as a buffer of its own (for the work item that owns it).
    func slice(_ range: Range<Int>) -> UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(rebasing: buffer[range])
    }
}

/// Runs `body` over `0..<count` on every core, or in order on this thread.
@inline(__always)
func forEachWorkItem(_ count: Int, parallel: Bool, _ body: @Sendable (Int) -> Void) {
    if parallel {
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
    } else {
        for item in 0..<count { body(item) }
    }
}

/// Splits `0..<count` into chunks of `size` (the same whatever the cores, so results that
/// are combined chunk by chunk do not depend on them) and runs `body(chunk, range)` for each,
/// on every core or in order on this thread. Returns the number of chunks.
@inline(__always)
@discardableResult
func forEachChunk(of count: Int, size: Int, parallel: Bool, _ body: @Sendable (Int, Range<Int>) -> Void) -> Int {
    let chunks = (count + size - 1) / size
    forEachWorkItem(chunks, parallel: parallel) { chunk in
        let start = chunk * size
        body(chunk, start..<Swift.min(start + size, count))
    }
    return chunks
}
