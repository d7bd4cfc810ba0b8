import Dispatch
import Synchronization
import XCTest
@testable import EventBus

private enum Kind: String, Sendable { case added, removed, params }

private struct TestEvent: BusEvent {
    let kind: Kind
    let value: Int
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
        let bus = EventBus<TestEvent>(replayCapacity: 5)
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
        let bus = EventBus<TestEvent>(replayCapacity: 10_000)
        let inboxes = (0..<4).map { _ in Inbox() }
        let subscriptions = inboxes.map { inbox in bus.subscribe { inbox.append($0) }.subscription }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<500 { bus.publish(TestEvent(kind: .added, value: thread * 1000 + value)) }
        }
        for inbox in inboxes {
            let seqs = inbox.all.map(\.seq)
            XCTAssertEqual(seqs, Array(1...4000).map(UInt64.init))
        }
        XCTAssertEqual(bus.replay(last: 10_000).map(\.seq), Array(1...4000).map(UInt64.init))
        withExtendedLifetime(subscriptions) {}
    }

    func testConcurrentSubscribeAndCancelWhilePublishing() {
        let bus = EventBus<TestEvent>()
        let received = Inbox()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                for value in 0..<2000 { bus.publish(TestEvent(kind: .added, value: value)) }
            } else {
                for _ in 0..<500 {
                    let (subscription, replayed) = bus.subscribe(replayLast: 5) { received.append($0) }
                    XCTAssertLessThanOrEqual(replayed.count, 5)
                    subscription.cancel()
                }
            }
        }
        XCTAssertEqual(bus.subscriberCount, 0)
        let seqs = bus.replay(last: 256).map(\.seq)
        XCTAssertEqual(seqs, seqs.sorted())
    }
}
