/// What `GET /healthz` and `GET /readyz` answer, for a load balancer or an orchestrator.
///
/// Alive (`/healthz`, 200): the service thread answered, so its loop turns; the rooms' own
/// threads report in `/metrics`. Ready (`/readyz`, 200) while the server takes rooms: not
/// draining, its state folder writable (when it has one), and in a cluster Redis reachable;
/// else 503 with every reason, so a load balancer sends new clients elsewhere.
package struct Readiness: Equatable, Sendable {
    package var draining = false
    /// nil: no state folder (rooms live in memory, or in Redis).
    package var stateFolderWritable: Bool?
    /// nil: not in a cluster.
    package var redisReachable: Bool?

    package init(draining: Bool = false, stateFolderWritable: Bool? = nil, redisReachable: Bool? = nil) {
        self.draining = draining
        self.stateFolderWritable = stateFolderWritable
        self.redisReachable = redisReachable
    }

    /// Why the server does not take rooms now (empty: it does).
    package var reasons: [String] {
        var reasons: [String] = []
        if draining { reasons.append("draining: the server is stopping") }
        if stateFolderWritable == false { reasons.append("the state folder is not writable") }
        if redisReachable == false { reasons.append("Redis is unreachable") }
        return reasons
    }

    package var isReady: Bool { reasons.isEmpty }

    /// The body of `/readyz`: `{"ready":true}` or `{"ready":false,"reasons":[…]}`.
    package var json: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 96)
        writer.raw("{\"ready\":")
        writer.bool(isReady)
        if !isReady {
            writer.raw(",\"reasons\":")
            writer.strings(reasons)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// The body of `/healthz`.
    package static func aliveJSON(uptimeSeconds: Int) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 48)
        writer.raw("{\"alive\":true")
        writer.member("uptimeSeconds", uptimeSeconds)
        writer.raw("}")
        return writer.bytes
    }
}
