import ArgumentParser
import Dispatch
import ForceLayout
import Foundation
import ImportTool
import LayoutCore
import LayoutRooms
import LayoutServer

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Step the engine headless from a seeded random start and print one JSON line of figures."
    )

    @Option(help: "Number of cells.")
    var cells = 10_000

    @Option(help: "Steps to time (with --settle: the most steps to wait for settling).")
    var ticks = 50

    @Option(help: "Barnes-Hut opening angle (0 = exact pair sum).")
    var theta = Parameters.defaults.theta

    @Flag(help: "Turn on the collision force.")
    var collide = false

    @Flag(help: "Run until the layout settles; report steps, seconds and overlapping pairs.")
    var settle = false

    @Option(help: "Seed of the random start.")
    var seed: UInt64 = 42

    @Option(help: "A graph file (node-link JSON or an edge list, as `import` reads) whose nodes and links are the cells; --cells is then ignored.")
    var graph: String?

    func validate() throws {
        guard cells >= 1 else { throw ValidationError("--cells must be at least 1") }
        guard ticks >= 1 else { throw ValidationError("--ticks must be at least 1") }
        if let range = Parameters.spec(for: \.theta).range, !range.contains(theta) {
            throw ValidationError("--theta must be in \(range.text)")
        }
    }

    func run() throws {
        var parameters = Parameters.defaults
        parameters.theta = theta
        parameters.collide = collide
        let simulation = Simulation(parameters: parameters, seed: seed)
        if let graph {
            try load(graph, into: simulation)
        } else {
            simulation.add(count: cells, spawn: .random)
        }
        var line = settle ? settleFigures(simulation) : speedFigures(simulation)
        if let graph {
            line["graph"] = graph
            line["links"] = simulation.links.count
            line["linkRatio"] = rounded(LayoutQuality.linkRatio(simulation))
        }
        let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    private func speedFigures(_ simulation: Simulation) -> [String: Any] {
        var stepTimes: [Double] = []
        var (encodeTimes, binaryTimes): ([Double], [Double]) = ([], [])
        var (frameBytes, binaryBytes) = (0, 0)
        var encoder = FrameEncoder(), binaryEncoder = BinaryFrameEncoder()
        // The membership parts, written once per membership version.
        _ = encoder.encode(simulation)
        _ = binaryEncoder.encode(simulation, at: 0)
        for _ in 0..<ticks {
            let start = DispatchTime.now().uptimeNanoseconds
            simulation.step()
            stepTimes.append(milliseconds(since: start))
            // What the server does per frame: both forms of v1, then both of v2.
            let encodeStart = DispatchTime.now().uptimeNanoseconds
            let frame = encoder.encode(simulation)
            encodeTimes.append(milliseconds(since: encodeStart))
            let binaryStart = DispatchTime.now().uptimeNanoseconds
            let binary = binaryEncoder.encode(simulation, at: 0)
            binaryTimes.append(milliseconds(since: binaryStart))
            (frameBytes, binaryBytes) = (frame.withoutIDs.count, binary.withoutIDs.count)
        }
        return [
            "engine": "forcelayout", "cells": simulation.count, "theta": theta, "collide": collide, "ticks": ticks,
            "msPerTick": rounded(median(stepTimes)), "msPerTickMean": rounded(stepTimes.reduce(0, +) / Double(ticks)),
            "encodeMs": rounded(median(encodeTimes)), "frameBytes": frameBytes,
            "bytesPerCell": rounded(Double(frameBytes) / Double(simulation.count)), "rssMB": rounded(ProcessMemory.peakResidentMB),
            "v2EncodeMs": rounded(median(binaryTimes)), "v2FrameBytes": binaryBytes,
            "v2BytesPerCell": rounded(Double(binaryBytes) / Double(simulation.count)), "maxMove": rounded(simulation.lastReport.maxMove),
        ]
    }

    private func settleFigures(_ simulation: Simulation) -> [String: Any] {
        let start = DispatchTime.now().uptimeNanoseconds
        var steps = 0
        var settled = false
        while steps < ticks && !settled {
            settled = simulation.step().settled
            steps += 1
        }
        let seconds = milliseconds(since: start) / 1000
        let (overlaps, closest) = LayoutQuality.overlaps(simulation)
        var encoder = FrameEncoder()
        let frameBytes = encoder.encode(simulation).withoutIDs.count
        return [
            "frameBytes": frameBytes, "bytesPerCell": rounded(Double(frameBytes) / Double(simulation.count)),
            "engine": "forcelayout", "mode": "settle", "cells": simulation.count, "theta": theta, "collide": collide,
            "settled": settled, "settleSteps": steps, "settleSeconds": rounded(seconds),
            "overlaps": overlaps, "minDistance": rounded(closest), "maxMove": rounded(simulation.lastReport.maxMove),
            "lastRest": rounded(simulation.lastReport.maxRestStep),
            "rssMB": rounded(ProcessMemory.peakResidentMB),
        ]
    }

    /// The graph's nodes as cells (where the file places them, else spawned) and its links.
    private func load(_ path: String, into simulation: Simulation) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
        let file = try GraphFile.read(Array(data))
        let ids = try simulation.add(file.nodes.map(\.cell.seed))
        try simulation.link(file.edges.map { edge in
            Link(source: ids[edge.source], target: ids[edge.target], distance: edge.distance,
                 strength: edge.strength)
        })
    }

    private func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

}
