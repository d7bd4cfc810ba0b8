import Foundation

/// C strings and structs handed to libwebsockets must outlive the context: this keeps them,
/// and frees them only when the server (or the load tool) is done with the context.
package final class CAllocations {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var blocks: [(pointer: UnsafeMutableRawPointer, deinitialize: () -> Void)] = []

    package init() {}

    package func string(_ text: String) -> UnsafePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// A stable, zero-initialised copy of `value`.
    package func keep<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        blocks.append((UnsafeMutableRawPointer(pointer), { pointer.deinitialize(count: 1) }))
        return pointer
    }

    /// A stable array of `values`.
    package func keep<T>(array values: [T]) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
        pointer.initialize(from: values, count: values.count)
        let count = values.count
        blocks.append((UnsafeMutableRawPointer(pointer), { pointer.deinitialize(count: count) }))
        return pointer
    }

    deinit {
        for string in strings { free(string) }
        for block in blocks {
            block.deinitialize()
            block.pointer.deallocate()
        }
    }
}
