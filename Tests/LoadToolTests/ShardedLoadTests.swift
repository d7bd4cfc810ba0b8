import XCTest
@testable import LoadTool

/// `--processes`: how clients are dealt to shards, the window they share, and one report of
/// every shard's figures; `--slow`: a slow reader's pace and its report.
final class ShardedLoadTests: XCTestCase {
    func testClientsAreDealtInTurnAndSlowReadersGetAShardOfTheirOwn() {
        let parts = ShardPlan.parts(readers: 5, slow: 1, stalled: 2, shards: 2)
        XCTAssertEqual(parts, [
            ShardPart(index: 0, readers: [0, 2, 4], slow: 0, stalled: 1, control: true),
            ShardPart(index: 1, readers: [1, 3], slow: 0, stalled: 1, control: false),
            ShardPart(index: 2, readers: [], slow: 1, stalled: 0, control: false),
        ])
        XCTAssertEqual(ShardPlan.parts(readers: 0, slow: 2, stalled: 0, shards: 2),
                       [ShardPart(index: 0, readers: [], slow: 2, stalled: 0, control: true)])
        XCTAssertEqual(ShardPlan.parts(readers: 2, slow: 0, stalled: 0, shards: 8).count, 2, "no empty shards")
        XCTAssertEqual(ShardPlan.parts(readers: 3, slow: 0, stalled: 0, shards: 1).first?.readers, [0, 1, 2])
        XCTAssertEqual(ShardPlan.parts(readers: 1000, slow: 0, stalled: 5, shards: 3).map(\.clients), [335, 335, 335])
    }

    func testTheWindowOpensWhenEveryShardIsReady() {
        let schedule = RunSchedule(shards: 2, warmup: 5, seconds: 60, deadline: 100)
        schedule.shardReady(now: 10)
        XCTAssertNil(schedule.window(now: 11))
        schedule.shardReady(now: 12)
        XCTAssertEqual(schedule.window(now: 13), RunSchedule.Window(from: 17, to: 77))
        XCTAssertEqual(schedule.window(now: 50), RunSchedule.Window(from: 17, to: 77), "fixed once")
        XCTAssertEqual(schedule.waitForWindow(until: Date()), RunSchedule.Window(from: 17, to: 77))
        XCTAssertFalse(schedule.released)
        schedule.release()
        XCTAssertTrue(schedule.released)
    }

    func testTheWindowOpensAtTheDeadlineAndAStopEndsTheWait() {
        let late = RunSchedule(shards: 3, warmup: 1, seconds: 2, deadline: 30)
        late.shardReady(now: 10)
        XCTAssertNil(late.window(now: 29))
        XCTAssertEqual(late.window(now: 30), RunSchedule.Window(from: 31, to: 33))
        let stopped = RunSchedule(shards: 1, warmup: 1, seconds: 2, deadline: .infinity)
        stopped.stop("refused")
        stopped.stop("later")
        XCTAssertEqual(stopped.stopped, "refused")
        XCTAssertNil(stopped.waitForWindow(until: Date(timeIntervalSinceNow: 5)))
    }

    func testShardsMergeIntoOneReport() {
        func reader(frames: Int) -> LoadTally {
            var tally = LoadTally(stalled: false)
            tally.frames = frames
            tally.bytes = frames * 8000
            return tally
        }
        var slow = LoadTally(stalled: false, slow: true)
        slow.frames = 50
        slow.bytes = 50 * 8000
        var stalled = LoadTally(stalled: true)
        stalled.closedWith = 1008
        var ages = (FrameAges(), FrameAges())
        ages.0.readers = LatencyHistogram(Array(repeating: 5, count: 98))
        ages.1.readers = LatencyHistogram([90, 120])
        ages.1.slow = LatencyHistogram([200, 250, 290])
        ages.1.slowStarts = LatencyHistogram([40, 60, 80])
        let one = ShardResult(tallies: [reader(frames: 200), stalled], ages: ages.0, measuredSeconds: 10)
        let two = ShardResult(tallies: [reader(frames: 190), slow], ages: ages.1, measuredSeconds: 10)
        let tallies = LoadRun.merged([one, two])
        XCTAssertEqual(tallies.map(\.frames), [200, 190, 50, 0], "readers, slow, stalled")
        let json = LoadReport(seconds: 10, tallies: tallies, ages: FrameAges.merged([one.ages, two.ages]),
                              before: .init(tick: 0, rssMB: 20, clients: 4, cells: 2000, at: 0),
                              after: .init(tick: 200, rssMB: 20, clients: 4, cells: 2000, at: 10)).json
        XCTAssertEqual(json["clients"] as? Int, 2)
        XCTAssertEqual(json["stalled"] as? Int, 1)
        XCTAssertEqual((json["delivered"] as? [String: Double])?["min"], 0.95, "the worst reader of any shard")
        // p99 of 100 samples over both shards, the slow reader's ages apart
        XCTAssertEqual((json["latencyMs"] as? [String: Any])?["p99"] as? Double, 90)
        XCTAssertEqual((json["latencyMs"] as? [String: Any])?["samples"] as? Int, 100)
        let slowJSON = json["slow"] as? [String: Any]
        XCTAssertEqual((slowJSON?["frameAgeMs"] as? [String: Any])?["p99"] as? Double, 290)
        XCTAssertEqual(slowJSON?["frameAgeAtStartMs"] as? [String: Double], ["p50": 60, "p99": 80])
        XCTAssertEqual(slowJSON?["shareOfReaderBandwidth"] as? Double, 0.263, "50 frames to the median (nearest rank) reader's 190")
        XCTAssertEqual(json["stalledCloseCodes"] as? [Int], [1008])
    }

    func testASlowReaderPacesItselfByTheServersClock() {
        var pace = SlowPace(fraction: 0.25)
        XCTAssertEqual(pace.pause(afterReading: 4000), 0, "reads freely until the rate is known")
        pace.frame(bytes: 8000, tick: 100, madeAt: 1_000_000)
        XCTAssertNil(pace.bytesPerSecond)
        // it read slowly, so frames were skipped: ticks jump, steps per second by their `at` still hold
        pace.frame(bytes: 8000, tick: 104, madeAt: 1_000_200)
        XCTAssertEqual(pace.bytesPerSecond!, 40_000, accuracy: 1e-6)
        XCTAssertEqual(pace.pause(afterReading: 4000), 0.1, accuracy: 1e-9)
        pace.frame(bytes: 13_000, tick: 108, madeAt: 1_000_400)
        XCTAssertEqual(pace.frameBytes!, 9000, accuracy: 1e-9, "a moving average of the frames' size")
    }
}

extension ShardedLoadTests {
    func testASlowReaderForgetsAnIdleStart() {
        var pace = SlowPace(fraction: 0.25)
        // joined an empty layout: one frame, then nothing for 30 s until the cells came
        pace.frame(bytes: 40, tick: 0, madeAt: 0)
        pace.frame(bytes: 8000, tick: 3, madeAt: 30_000)
        XCTAssertEqual(pace.pause(afterReading: 8000), SlowPace.longestPause, "never longer")
        for step in 1...SlowPace.remembered { pace.frame(bytes: 8000, tick: 3 + step, madeAt: 30_000 + 50 * Double(step)) }
        XCTAssertEqual(pace.stepsPerSecond!, 20, accuracy: 1e-9)
    }

    func testASlowReaderPacesItselfByTheRoomsFrameRateWhenKnown() {
        var pace = SlowPace(fraction: 0.25, framesPerSecond: 20)
        // Dozens of steps a frame: the ticks say nothing of the frames.
        pace.frame(bytes: 8000, tick: 100, madeAt: 1_000_000)
        XCTAssertEqual(pace.bytesPerSecond!, 40_000, accuracy: 1e-6, "known from the first frame")
        pace.frame(bytes: 8000, tick: 900, madeAt: 1_000_050)
        XCTAssertEqual(pace.bytesPerSecond!, 40_000, accuracy: 1e-6)
    }
}
