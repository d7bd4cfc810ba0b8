import Dispatch
import Synchronization
import XCTest
@testable import EventBus

private enum Kind: String, Sendable { case added, removed, params }

private struct TestEvent: BusEvent {
    let kind: Kind
    let value: Int
    var replayBytes = 10
}

/// Collects delivered envelopes across threads.
private final class Inbox: Sendable {
    private let items = Mutex<[Envelope<TestEvent>]>([])
    func append(_ envelope: Envelope<TestEvent>) { items.withLock { $0.append(envelope) } }
    var all: [Envelope<TestEvent>] { items.withLock { $0 } }
    var values: [Int] { all.map(\.event.value) }
}

final class EventBusTests: XCTestCase {
    func testSequenceNumbersStrictlyIncrease() {
        let bus = EventBus<TestEvent>()
        let seqs = (0..<10).map { bus.publish(TestEvent(kind: .added, value: $0)).seq }
        XCTAssertEqual(seqs, Array(1...10).map(UInt64.init))
        XCTAssertEqual(bus.nextSeq, 11)
    }

    func testMirroringKeepsTheSequenceNumberAndDropsRepeats() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe { inbox.append($0) }
        XCTAssertTrue(bus.mirror(Envelope(seq: 5, event: TestEvent(kind: .added, value: 1))))
        XCTAssertFalse(bus.mirror(Envelope(seq: 5, event: TestEvent(kind: .added, value: 2))))
        XCTAssertEqual(bus.publish(TestEvent(kind: .added, value: 3)).seq, 6)
        XCTAssertEqual(inbox.values, [1, 3])
        subscription.cancel()
    }

    /// A sequence number no bus stamps (a hostile one: 2^64 − 1 has no next) is refused, not
    /// numbered on from: the bus neither traps nor stops taking the real events after it.
    func testASequenceNumberAboveTheBoundIsRefusedAndNumberingGoesOn() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe { inbox.append($0) }
        XCTAssertTrue(bus.mirror(Envelope(seq: 3, event: TestEvent(kind: .added, value: 1))))
        for hostile in [UInt64.max, UInt64.max - 1, EventBusBounds.maxSeq + 1] {
            XCTAssertFalse(bus.mirror(Envelope(seq: hostile, event: TestEvent(kind: .added, value: 99))))
            XCTAssertFalse(bus.skip(through: hostile))
        }
        XCTAssertEqual(bus.nextSeq, 4)
        XCTAssertTrue(bus.mirror(Envelope(seq: 4, event: TestEvent(kind: .added, value: 2))))
        XCTAssertEqual(inbox.values, [1, 2])
        // The bound itself is a sequence number like any other, and one can be published after it.
        XCTAssertTrue(bus.mirror(Envelope(seq: EventBusBounds.maxSeq, event: TestEvent(kind: .added, value: 3))))
        XCTAssertEqual(bus.publish(TestEvent(kind: .added, value: 4)).seq, EventBusBounds.maxSeq + 1)
        XCTAssertTrue(bus.skip(through: EventBusBounds.maxSeq))
        XCTAssertEqual(inbox.values, [1, 2, 3, 4])
        subscription.cancel()
    }

    func testSubscriberToAllReceivesEverything() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe { inbox.append($0) }
        bus.publish(TestEvent(kind: .added, value: 1))
        bus.publish(TestEvent(kind: .removed, value: 2))
        XCTAssertEqual(inbox.values, [1, 2])
        withExtendedLifetime(subscription) {}
    }

    func testFilteredSubscriberReceivesOnlyItsKinds() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe(.only([.removed, .params])) { inbox.append($0) }
        bus.publish(TestEvent(kind: .added, value: 1))
        bus.publish(TestEvent(kind: .removed, value: 2))
        bus.publish(TestEvent(kind: .params, value: 3))
        bus.publish(TestEvent(kind: .added, value: 4))
        XCTAssertEqual(inbox.values, [2, 3])
        withExtendedLifetime(subscription) {}
    }

    func testChangingFilterTakesEffectFromNextPublish() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe(.only([.added])) { inbox.append($0) }
        bus.publish(TestEvent(kind: .added, value: 1))
        bus.publish(TestEvent(kind: .removed, value: 2))
        subscription.setFilter(.only([.removed]))
        bus.publish(TestEvent(kind: .added, value: 3))
        bus.publish(TestEvent(kind: .removed, value: 4))
        XCTAssertEqual(inbox.values, [1, 4])
    }

    func testReplayIsOldestFirstAndBounded() {
        let bus = EventBus<TestEvent>(replay: ReplayBounds(events: 5))
        for value in 1...12 { bus.publish(TestEvent(kind: value.isMultiple(of: 2) ? .added : .removed, value: value)) }
        XCTAssertEqual(bus.replay(last: 100).map(\.event.value), [8, 9, 10, 11, 12])
        XCTAssertEqual(bus.replay(last: 3).map(\.event.value), [10, 11, 12])
        XCTAssertEqual(bus.replay(last: 100, .only([.added])).map(\.event.value), [8, 10, 12])
        XCTAssertEqual(bus.replay(last: 2, .only([.removed])).map(\.event.value), [9, 11])
        XCTAssertEqual(bus.replay(last: 0).count, 0)
        XCTAssertEqual(bus.replay(last: 100, .only([.params])).count, 0)
        let seqs = bus.replay(last: 100).map(\.seq)
        XCTAssertEqual(seqs, seqs.sorted())
    }

    func testReplayIsBoundedInBytes() {
        let bus = EventBus<TestEvent>(replay: ReplayBounds(events: 100, bytes: 35))
        for value in 1...6 { bus.publish(TestEvent(kind: .added, value: value)) }
        XCTAssertEqual(bus.replay(last: 100).map(\.event.value), [4, 5, 6], "three events of 10 bytes fit in 35")
        bus.publish(TestEvent(kind: .added, value: 7, replayBytes: 25))
        XCTAssertEqual(bus.replay(last: 100).map(\.event.value), [6, 7])
        XCTAssertEqual(bus.replayCount, 2)
    }

    func testAnEventLargerThanTheByteBoundIsDeliveredButEndsTheReplay() {
        let bus = EventBus<TestEvent>(replay: ReplayBounds(events: 100, bytes: 35))
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe { inbox.append($0) }
        for value in 1...3 { bus.publish(TestEvent(kind: .added, value: value)) }
        bus.publish(TestEvent(kind: .added, value: 4, replayBytes: 36))
        XCTAssertEqual(inbox.values, [1, 2, 3, 4])
        XCTAssertEqual(bus.replay(last: 100).count, 0, "a replay never skips over an event it could not keep")
        bus.publish(TestEvent(kind: .added, value: 5))
        XCTAssertEqual(bus.replay(last: 100).map(\.event.value), [5])
        subscription.cancel()
    }

    func testDefaultReplayCapacityIs256() {
        let bus = EventBus<TestEvent>()
        for value in 0..<300 { bus.publish(TestEvent(kind: .added, value: value)) }
        let replayed = bus.replay(last: 1000)
        XCTAssertEqual(replayed.count, 256)
        XCTAssertEqual(replayed.first?.event.value, 44)
        XCTAssertEqual(replayed.last?.event.value, 299)
    }

    func testSubscribeWithReplayHasNoGapAndNoRepeat() {
        let bus = EventBus<TestEvent>()
        for value in 1...3 { bus.publish(TestEvent(kind: .added, value: value)) }
        let inbox = Inbox()
        let (subscription, replayed) = bus.subscribe(replayLast: 10) { inbox.append($0) }
        bus.publish(TestEvent(kind: .added, value: 4))
        XCTAssertEqual(replayed.map(\.event.value) + inbox.values, [1, 2, 3, 4])
        withExtendedLifetime(subscription) {}
    }

    func testCancelEndsDelivery() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let (subscription, _) = bus.subscribe { inbox.append($0) }
        bus.publish(TestEvent(kind: .added, value: 1))
        XCTAssertTrue(subscription.isActive)
        subscription.cancel()
        XCTAssertFalse(subscription.isActive)
        bus.publish(TestEvent(kind: .added, value: 2))
        XCTAssertEqual(inbox.values, [1])
        XCTAssertEqual(bus.subscriberCount, 0)
    }

    func testReleasingTheSubscriptionEndsDelivery() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        do {
            let (subscription, _) = bus.subscribe { inbox.append($0) }
            bus.publish(TestEvent(kind: .added, value: 1))
            withExtendedLifetime(subscription) {}
        }
        XCTAssertEqual(bus.subscriberCount, 0)
        bus.publish(TestEvent(kind: .added, value: 2))
        XCTAssertEqual(inbox.values, [1])
    }

    func testHandlerMayCancelItsOwnSubscription() {
        let bus = EventBus<TestEvent>()
        let inbox = Inbox()
        let holder = Mutex<Subscription<TestEvent>?>(nil)
        let (subscription, _) = bus.subscribe { envelope in
            inbox.append(envelope)
            holder.withLock { $0?.cancel() }
        }
        holder.withLock { $0 = subscription }
        bus.publish(TestEvent(kind: .added, value: 1))
        bus.publish(TestEvent(kind: .added, value: 2))
        XCTAssertEqual(inbox.values, [1])
    }

    func testConcurrentPublishersDeliverInSequenceOrder() {
        let bus = EventBus<TestEvent>(replay: ReplayBounds(events: 10_000))
        let inboxes = (0..<4).map { _ in Inbox() }
        let subscriptions = inboxes.map { inbox in bus.subscribe { inbox.append($0) }.subscription }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<500 { bus.publish(TestEvent(kind: .added, value: thread * 1000 + value)) }
        }
        for inbox in inboxes {
            let seqs = inbox.all.map(\.seq)
            XCTAssertEqual(seqs, Array(1...4000).map(UInt64.init))
            // Every publisher's 500 events, each once, in the order it published them.
            for thread in 0..<8 {
                XCTAssertEqual(inbox.values.filter { $0 / 1000 == thread }, Array(thread * 1000..<(thread * 1000 + 500)))
            }
        }
        XCTAssertEqual(bus.replay(last: 10_000).map(\.seq), Array(1...4000).map(UInt64.init))
        withExtendedLifetime(subscriptions) {}
    }

    /// Short-lived subscribers come and go while one thread publishes. Each must have seen a
    /// run of consecutive events, its replay then its deliveries, every one exactly once and in
    /// order: the replay the last 5 before it subscribed, then every event published while it
    /// was subscribed, and none published after it cancelled.
    func testConcurrentSubscribeAndCancelWhilePublishing() {
        let bus = EventBus<TestEvent>()
        let published = Atomic<Bool>(false)
        let witnesses = Mutex<[Witness]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                // One publisher, so the event under sequence number n carries n - 1.
                for value in 0..<2000 { bus.publish(TestEvent(kind: .added, value: value)) }
                published.store(true, ordering: .releasing)
            } else {
                for _ in 0..<500 {
                    let inbox = Inbox()
                    let (subscription, replayed) = bus.subscribe(replayLast: 5) { inbox.append($0) }
                    let owedFrom = bus.nextSeq  // stamped after it subscribed: owed to it
                    // Stay for one more event, unless the publisher is done.
                    while bus.nextSeq == owedFrom && !published.load(ordering: .acquiring) {}
                    let owedTo = bus.nextSeq    // stamped before it cancels: owed to it
                    subscription.cancel()
                    let endedAt = bus.nextSeq   // stamped after it cancelled: not for it
                    witnesses.withLock {
                        $0.append(Witness(replayed: replayed, inbox: inbox, owed: owedFrom..<owedTo, endedAt: endedAt))
                    }
                }
            }
        }
        XCTAssertEqual(bus.subscriberCount, 0)
        let seen = witnesses.withLock { $0 }
        XCTAssertEqual(seen.count, 1500)
        for witness in seen {
            let delivered = witness.inbox.all
            let all = witness.replayed + delivered
            let seqs = all.map(\.seq)
            let first = seqs.first ?? 1
            XCTAssertEqual(seqs, Array(first..<(first + UInt64(seqs.count))), "a gap, a repeat or a reordering")
            XCTAssertEqual(all.map(\.event.value), seqs.map { Int($0) - 1 }, "an event not as published")
            let before = Int(witness.replayed.last?.seq ?? 0)
            XCTAssertEqual(witness.replayed.count, min(5, before), "the replay is not the last 5 before subscribing")
            if witness.replayed.isEmpty, let firstDelivered = delivered.first {
                XCTAssertEqual(firstDelivered.seq, 1, "events before it subscribed missing from its replay")
            }
            let received = Set(seqs)
            XCTAssertTrue(witness.owed.allSatisfy(received.contains), "an event published while subscribed was not delivered")
            XCTAssertLessThan(delivered.last?.seq ?? 0, witness.endedAt, "an event published after cancel was delivered")
        }
        let seqs = bus.replay(last: 256).map(\.seq)
        XCTAssertEqual(seqs, seqs.sorted())
    }
}

/// What one short-lived subscriber of the concurrency test saw, and what it was owed.
private struct Witness: Sendable {
    let replayed: [Envelope<TestEvent>]
    let inbox: Inbox
    /// Sequence numbers stamped while it was surely subscribed.
    let owed: Range<UInt64>
    /// The next sequence number once its cancel had returned.
    let endedAt: UInt64
}
