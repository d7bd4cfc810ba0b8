import CLibWebSockets

/// A one-shot libwebsockets timer (`lws_sul`) that runs `action` on the service thread; call
/// `schedule` again from the action to repeat. The C list entry lives at a stable address
/// with a pointer back to this object after it, because a C callback cannot capture.
/// The server's timers and the load tool's phases both run on one.
package final class ServiceTimer {
    private let block: UnsafeMutableRawPointer
    private let action: () -> Void
    private var entry: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        block.assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    package init(action: @escaping () -> Void) {
        self.action = action
        let size = MemoryLayout<lws_sorted_usec_list_t>.stride + MemoryLayout<UnsafeRawPointer>.stride
        block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        block.advanced(by: MemoryLayout<lws_sorted_usec_list_t>.stride)
            .storeBytes(of: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()), as: UnsafeRawPointer.self)
    }

    /// Runs the action once, `microseconds` from now (replacing a pending run).
    package func schedule(on context: OpaquePointer, after microseconds: Int64) {
        lws_sul_schedule(context, 0, entry, serviceTimerCallback, microseconds)
    }

    /// Call before the context is destroyed or this timer released.
    package func cancel() { lws_sul_cancel(entry) }

    deinit { block.deallocate() }

    fileprivate static func fire(_ entry: UnsafeMutablePointer<lws_sorted_usec_list_t>) {
        let slot = UnsafeMutableRawPointer(entry).advanced(by: MemoryLayout<lws_sorted_usec_list_t>.stride)
        Unmanaged<ServiceTimer>.fromOpaque(slot.load(as: UnsafeRawPointer.self)).takeUnretainedValue().action()
    }
}

private func serviceTimerCallback(_ entry: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let entry else { return }
    ServiceTimer.fire(entry)
}
