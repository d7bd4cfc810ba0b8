/// What the server process (when its pid is known) and the load tool itself cost over a
/// window: CPU as cores kept busy, and the server's resident memory at the end; and the whole
/// machine's busy cores, so what other processes took shows.
public struct ProcessCost: Equatable, Sendable {
    public struct Sample: Equatable, Sendable {
        public var server: ProcessSample?
        public var tool: ProcessSample?
        public var machine: MachineSample?

        public init(server: ProcessSample? = nil, tool: ProcessSample? = nil, machine: MachineSample? = nil) {
            self.server = server
            self.tool = tool
            self.machine = machine
        }

        /// The three now (`serverPID` nil: no server sample).
        static func read(serverPID: Int32?, at: Double) -> Sample {
            Sample(server: serverPID.flatMap { ProcessSample.read(pid: $0, at: at) }, tool: ProcessSample.read(at: at),
                   machine: MachineSample.read(at: at))
        }
    }

    public var before = Sample()
    public var after = Sample()

    public init(before: Sample = Sample(), after: Sample = Sample()) {
        self.before = before
        self.after = after
    }

    /// `serverProcess` {cpuCores, rssMB, peakRSSMB}, `loadToolCPUCores` and
    /// `machineBusyCores`, for what is known.
    var json: [String: Any] {
        var result: [String: Any] = [:]
        if let before = before.server, let after = after.server, let cores = ProcessSample.cores(from: before, to: after) {
            var server: [String: Any] = ["cpuCores": Figures.round(cores, 3), "rssMB": Figures.round(after.rssMB, 1)]
            if let peak = after.peakRSSMB { server["peakRSSMB"] = Figures.round(peak, 1) }
            result["serverProcess"] = server
        }
        if let before = before.tool, let after = after.tool, let cores = ProcessSample.cores(from: before, to: after) {
            result["loadToolCPUCores"] = Figures.round(cores, 3)
        }
        if let before = before.machine, let after = after.machine, let cores = MachineSample.cores(from: before, to: after) {
            result["machineBusyCores"] = Figures.round(cores, 3)
        }
        return result
    }
}
