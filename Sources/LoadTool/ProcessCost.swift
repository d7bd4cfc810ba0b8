/// What the server process (when its pid is known) and the load tool itself cost over a
/// window: CPU as cores kept busy, and the server's resident memory at the end.
public struct ProcessCost: Equatable, Sendable {
    public var serverBefore: ProcessSample?
    public var serverAfter: ProcessSample?
    public var toolBefore: ProcessSample?
    public var toolAfter: ProcessSample?

    public init(serverBefore: ProcessSample? = nil, serverAfter: ProcessSample? = nil,
                toolBefore: ProcessSample? = nil, toolAfter: ProcessSample? = nil) {
        self.serverBefore = serverBefore
        self.serverAfter = serverAfter
        self.toolBefore = toolBefore
        self.toolAfter = toolAfter
    }

    /// Samples both processes now (`serverPID` nil: the load tool only).
    static func sample(serverPID: Int32?, at: Double) -> (server: ProcessSample?, tool: ProcessSample?) {
        (serverPID.flatMap { ProcessSample.read(pid: $0, at: at) }, ProcessSample.read(at: at))
    }

    /// `serverProcess` {cpuCores, rssMB, peakRSSMB} and `loadToolCPUCores`, for what is known.
    var json: [String: Any] {
        var result: [String: Any] = [:]
        if let before = serverBefore, let after = serverAfter, let cores = ProcessSample.cores(from: before, to: after) {
            var server: [String: Any] = ["cpuCores": Figures.round(cores, 3), "rssMB": Figures.round(after.rssMB, 1)]
            if let peak = after.peakRSSMB { server["peakRSSMB"] = Figures.round(peak, 1) }
            result["serverProcess"] = server
        }
        if let before = toolBefore, let after = toolAfter, let cores = ProcessSample.cores(from: before, to: after) {
            result["loadToolCPUCores"] = Figures.round(cores, 3)
        }
        return result
    }
}
