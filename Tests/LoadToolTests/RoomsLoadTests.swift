import XCTest
@testable import LoadTool

/// The pure parts of `forcelayout load --rooms`: room names and paths, set-up messages, the
/// steps a reader's frames show, when a room counts as settled, /proc samples, the reports.
final class RoomsLoadTests: XCTestCase {
    func testRoomNamesAndPaths() throws {
        let plan = try RoomPlan(rooms: 3, prefix: "load")
        XCTAssertEqual(plan.names.map(\.description), ["load-0001", "load-0002", "load-0003"])
        XCTAssertEqual(plan.path(of: 0, under: "/ws"), "/ws/load-0001")
        XCTAssertEqual(plan.path(of: 2, under: "/ws/"), "/ws/load-0003")
        let many = try RoomPlan(rooms: 12_345, prefix: "x")
        XCTAssertEqual(many.names.first?.description, "x-00001")
        XCTAssertEqual(many.names.last?.description, "x-12345")
        XCTAssertEqual(Set(many.names).count, 12_345)
        for bad in ["Load", "-x", "a/b", "a.b", "", String(repeating: "a", count: 36)] {
            XCTAssertThrowsError(try RoomPlan(rooms: 1, prefix: bad), bad)
        }
        XCTAssertNoThrow(try RoomPlan(rooms: 1, prefix: String(repeating: "a", count: 35)))
        XCTAssertThrowsError(try RoomPlan(rooms: 0, prefix: "load"))
    }

    func testSetUpMessages() {
        XCTAssertEqual(SetUp(cells: 2500).messages, [
            #"{"type":"add","count":1000}"#, #"{"type":"add","count":1000}"#, #"{"type":"add","count":500}"#,
            #"{"type":"params","threshold":0}"#,
        ])
        XCTAssertEqual(SetUp(cells: 500, tickRate: 10).messages,
                       [#"{"type":"add","count":500}"#, #"{"type":"params","threshold":0,"tickRate":10}"#])
        XCTAssertEqual(SetUp(cells: 50, keepMoving: false).messages, [#"{"type":"add","count":50}"#])
        XCTAssertEqual(SetUp(cells: 50, keepMoving: false, tickRate: 12.5).messages,
                       [#"{"type":"add","count":50}"#, #"{"type":"params","tickRate":12.5}"#])
    }

    func testStepsPerSecondFromTheTicksSeen() {
        var span = TickSpan()
        XCTAssertNil(span.stepsPerSecond)
        span.saw(tick: 100, at: 10)
        XCTAssertNil(span.stepsPerSecond)
        span.saw(tick: 101, at: 10.1)
        // a reader that fell behind got only the newest frame: the ticks jump, steps still count
        span.saw(tick: 110, at: 11.5)
        span.saw(tick: 200, at: 20)
        XCTAssertEqual(span.stepsPerSecond!, 10, accuracy: 1e-9)
        XCTAssertEqual(span.longestGap, 8.5, accuracy: 1e-9)
        XCTAssertEqual(span.first, TickSpan.Mark(tick: 100, at: 10))
    }

    func testStatsMessages() {
        let message = Array(#"{"type":"stats","room":"load-0001","cells":50,"clients":1,"tick":62,"settled":true,"tickMs":0.01}"#.utf8)
        XCTAssertEqual(RoomStats(message), RoomStats(cells: 50, tick: 62, settled: true))
        XCTAssertNil(RoomStats(Array(#"{"type":"frame","tick":1,"cells":2,"settled":true}"#.utf8)))
        XCTAssertNil(RoomStats(Array(#"{"type":"stats","cells":50,"tick":62"#.utf8)), "cut off")
        XCTAssertNil(RoomStats(Array(#"{"type":"stats","cells":50,"settled":true}"#.utf8)), "no tick")
        let long = #"{"type":"stats","cells":50,"tick":1,"settled":true,"pad":""# + String(repeating: "x", count: RoomStats.maxLength) + #""}"#
        XCTAssertNil(RoomStats(Array(long.utf8)))
    }

    func testARoomSettlesOnlyAfterItMovedWithEveryCell() {
        var watch = SettleWatch(cells: 50)
        watch.frame(tick: 0) // the frame a client gets as it joins
        // stats from before the add took effect, or before the first step after it
        XCTAssertFalse(watch.stats(RoomStats(cells: 0, tick: 0, settled: true), now: 1))
        XCTAssertFalse(watch.stats(RoomStats(cells: 50, tick: 0, settled: true), now: 1))
        watch.frame(tick: 1)
        XCTAssertFalse(watch.stats(RoomStats(cells: 50, tick: 20, settled: false), now: 2))
        watch.frame(tick: 62)
        XCTAssertFalse(watch.stats(RoomStats(cells: 50, tick: 40, settled: true), now: 3), "older than the last frame")
        XCTAssertFalse(watch.stats(RoomStats(cells: 49, tick: 62, settled: true), now: 3))
        XCTAssertTrue(watch.stats(RoomStats(cells: 50, tick: 62, settled: true), now: 4))
        XCTAssertEqual(watch.settledAt, 4)
        XCTAssertFalse(watch.stats(RoomStats(cells: 50, tick: 62, settled: true), now: 5), "only once")
    }

    func testProcStatLines() {
        // comm may hold spaces and parentheses; utime 250, stime 50 ticks; rss 2560 pages
        let stat = "4242 (forcelayout (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 5 0 1234 "
            + "123456789 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
        let sample = ProcessSample.parse(stat: stat, clockTicksPerSecond: 100, pageBytes: 4096, at: 7)
        XCTAssertEqual(sample, ProcessSample(cpuSeconds: 3, rssMB: 10, at: 7))
        XCTAssertNil(ProcessSample.parse(stat: "4242 (x) S 1 2", clockTicksPerSecond: 100, pageBytes: 4096, at: 0))
        XCTAssertEqual(ProcessSample.peakRSSMB(status: "Name:\tx\nVmHWM:\t  204800 kB\nVmRSS:\t1 kB\n"), 200)
        XCTAssertNil(ProcessSample.peakRSSMB(status: "Name:\tx\n"))
        let later = ProcessSample(cpuSeconds: 4.5, rssMB: 10, at: 17)
        XCTAssertEqual(ProcessSample.cores(from: sample!, to: later)!, 0.15, accuracy: 1e-12)
        XCTAssertNil(ProcessSample.cores(from: later, to: later))
        // this process, read for real
        let me = ProcessSample.read()
        XCTAssertNotNil(me)
        XCTAssertGreaterThan(me!.rssMB, 1)
        XCTAssertNotNil(me!.peakRSSMB)
    }

    func testProcStatOfTheMachine() {
        let stat = "cpu  1000 50 300 8000 200 10 40 0 0 0\ncpu0 500 25 150 4000 100 5 20 0 0 0\nintr 1 2\n"
        XCTAssertEqual(MachineSample.parse(stat: stat, clockTicksPerSecond: 100, at: 3), MachineSample(busySeconds: 14, at: 3))
        XCTAssertNil(MachineSample.parse(stat: "intr 1 2\n", clockTicksPerSecond: 100, at: 3))
        XCTAssertEqual(MachineSample.cores(from: MachineSample(busySeconds: 14, at: 3), to: MachineSample(busySeconds: 17, at: 5)), 1.5)
        XCTAssertNotNil(MachineSample.read())
    }

    func testRoomsReport() {
        var fast = LoadTally(stalled: false)
        fast.frames = 100
        fast.ticks.saw(tick: 10, at: 0)
        fast.ticks.saw(tick: 110, at: 10)
        var slow = fast
        slow.frames = 50
        slow.ticks = TickSpan()
        slow.ticks.saw(tick: 0, at: 0.5)
        slow.ticks.saw(tick: 90, at: 10.5)
        let silent = LoadTally(stalled: false)
        let cost = ProcessCost(before: .init(server: ProcessSample(cpuSeconds: 1, rssMB: 50, peakRSSMB: 60, at: 0),
                                             tool: ProcessSample(cpuSeconds: 0, rssMB: 5, at: 0),
                                             machine: MachineSample(busySeconds: 100, at: 0)),
                               after: .init(server: ProcessSample(cpuSeconds: 13, rssMB: 80, peakRSSMB: 90, at: 10),
                                            tool: ProcessSample(cpuSeconds: 2.5, rssMB: 5, at: 10),
                                            machine: MachineSample(busySeconds: 118, at: 10)))
        let json = LoadReport(seconds: 10, tallies: [fast, slow, silent],
                              before: .init(tick: 0, rssMB: 50, clients: 0, cells: 0, at: 0),
                              after: .init(tick: 0, rssMB: 80, clients: 0, cells: 0, at: 10), cost: cost, rooms: 3).json
        XCTAssertEqual(json["rooms"] as? Int, 3)
        XCTAssertEqual(json["stepsPerSecond"] as? [String: Double], ["min": 0, "median": 9, "max": 10])
        XCTAssertEqual(json["framesPerSecond"] as? [String: Double], ["min": 0, "median": 5, "max": 10])
        XCTAssertNil(json["serverTicksPerSecond"], "/stats ticks are room main's")
        XCTAssertEqual(json["serverProcess"] as? [String: Double], ["cpuCores": 1.2, "rssMB": 80, "peakRSSMB": 90])
        XCTAssertEqual(json["loadToolCPUCores"] as? Double, 0.25)
        XCTAssertEqual(json["machineBusyCores"] as? Double, 1.8)
        XCTAssertEqual(json["longestFrameGapMs"] as? Double, 10_000)
    }

    func testSettleReport() {
        var settled = LoadTally(stalled: false)
        settled.settledAfter = 3.2
        settled.left = true
        settled.closedWith = 1006 // what libwebsockets reports of a connection it closed itself
        var refused = LoadTally(stalled: false)
        refused.connectFailed = true
        var closed = LoadTally(stalled: false)
        closed.closedWith = 1001
        let json = SettleReport(cellsPerRoom: 50, seconds: 5, tallies: [settled, refused, closed]).json
        XCTAssertEqual(json["rooms"] as? Int, 3)
        XCTAssertEqual(json["settled"] as? Int, 1)
        XCTAssertEqual(json["left"] as? Int, 1)
        XCTAssertEqual(json["connectFailures"] as? Int, 1)
        XCTAssertEqual(json["closedByServer"] as? Int, 1)
        XCTAssertEqual(json["closeCodes"] as? [Int], [1001])
        XCTAssertEqual((json["secondsToSettle"] as? [String: Double])?["max"], 3.2)
    }
}
