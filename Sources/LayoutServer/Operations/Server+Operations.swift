import CLibWebSockets
import Foundation
import Glibc
import LayoutCore
import LayoutRooms

/// What the server says to whoever runs it: `GET /metrics` (Prometheus's text format, guarded
/// by `OperatorAccess`), `GET /healthz` and `GET /readyz` (`Readiness`, open to anyone: a load
/// balancer brings no token, and they tell nothing about rooms).
extension Server {
    static let metricsPath = "/metrics"
    static let healthPath = "/healthz"
    static let readyPath = "/readyz"

    func serveMetrics(_ wsi: OpaquePointer) -> Int32 {
        let verdict = OperatorAccess.verdict(adminTokenSet: config.adminToken != nil,
                                             credential: credential(wsi, handshake: false),
                                             peerIsLoopback: peerKey(wsi).isLoopback)
        if case .refused(let status, let why) = verdict {
            logger.info("refused GET /metrics to \(peerAddress(wsi)): \(why)")
            let challenge: [(lws_token_indexes, String)] = status == 401 ? [(WSI_TOKEN_HTTP_WWW_AUTHENTICATE, "Bearer")] : []
            return respond(wsi, HTTPBody(Array("GET /metrics: \(why)\n".utf8)), type: "text/plain; charset=utf-8",
                           status: status, extraHeaders: challenge)
        }
        refreshGauges()
        return respond(wsi, HTTPBody(metricsRegistry.emitToBuffer()), type: "text/plain; version=0.0.4; charset=utf-8")
    }

    func serveHealth(_ wsi: OpaquePointer) -> Int32 {
        respond(wsi, HTTPBody(Readiness.aliveJSON(uptimeSeconds: uptimeSeconds)), type: "application/json")
    }

    func serveReadiness(_ wsi: OpaquePointer) -> Int32 {
        let readiness = self.readiness
        return respond(wsi, HTTPBody(readiness.json), type: "application/json",
                       status: UInt32(readiness.isReady ? HTTP_STATUS_OK.rawValue : HTTP_STATUS_SERVICE_UNAVAILABLE.rawValue))
    }

    var readiness: Readiness {
        Readiness(draining: drain != nil,
                  stateFolderWritable: config.stateDirectory.map { access($0, W_OK | X_OK) == 0 },
                  redisReachable: cluster == nil ? nil : clusterLinked)
    }

    /// The gauges, as things are now (counters and histograms count as things happen).
    private func refreshGauges() {
        metrics.gauge(.connections).record(connections.openCount)
        var protocols: [Subprotocol: Int] = [.v1: 0, .v2: 0]
        var queuedMessages = 0, queuedBytes = 0
        for session in sessions.all {
            protocols[session.binaryFrames ? .v2 : .v1, default: 0] += 1
            queuedMessages += session.mailbox.queuedCount
            queuedBytes += session.mailbox.queuedBytes
        }
        for (subprotocol, count) in protocols {
            metrics.gauge(.websockets, [("protocol", subprotocol.rawValue)]).record(count)
        }
        metrics.gauge(.queuedMessages).record(queuedMessages)
        metrics.gauge(.queuedBytes).record(queuedBytes)
        var states = ["moving": 0, "settled": 0, "paused": 0]
        var links = 0
        for room in host.rooms.values {
            let status = room.status.current
            states[status.parameters.paused ? "paused" : status.settled ? "settled" : "moving", default: 0] += 1
            links += room.linkCount
        }
        for (state, count) in states { metrics.gauge(.rooms, [("state", state)]).record(count) }
        metrics.gauge(.cells).record(host.budget.total)
        metrics.gauge(.links).record(links)
        metrics.gauge(.draining).record(drain == nil ? 0 : 1)
        metrics.gauge(.residentMemory).record(ProcessMemory.residentMB * 1_048_576)
        metrics.gauge(.startTime).record(startedAtEpochSeconds)
        metrics.gauge(.buildInfo, [("version", BuildInfo.version), ("build", BuildInfo.build)]).record(1)
        if let cluster {
            let counts = cluster.routeCounts
            metrics.gauge(.leases).record(counts.leases)
            metrics.gauge(.relays).record(counts.relays)
        }
    }
}
