import CLibWebSockets
import LayoutCore
import LayoutRooms

/// The libwebsockets context: protocols, mounts, options and the stats timer.
extension Server {
    func makeContextInfo() -> lws_context_creation_info {
        // The core reserves the frame header's room without knowing libwebsockets.
        precondition(Int(forcelayout_lws_pre) <= OutgoingMessage.reserved,
                     "libwebsockets' LWS_PRE (\(forcelayout_lws_pre)) is past OutgoingMessage.reserved")
        var retry = lws_retry_bo_t()
        retry.secs_since_valid_ping = config.pingAfterSeconds
        retry.secs_since_valid_hangup = config.hangUpAfterSeconds

        var info = lws_context_creation_info()
        info.port = Int32(config.port)
        info.iface = allocations.string(config.host)
        info.protocols = UnsafePointer(makeProtocols())
        info.mounts = UnsafePointer(makeMounts())
        info.pvo = UnsafePointer(makeProtocolOptions())
        info.retry_and_idle_policy = UnsafePointer(allocations.keep(retry))
        info.vhost_name = allocations.string("forcelayout")
        // Idle keep-alive HTTP connections close after the request timeout (else 5 s by default).
        info.keepalive_timeout = Int32(config.limits.requestTimeout)
        info.fd_limit_per_thread = UInt32(DescriptorBudget.socketLimit(maxConnections: config.limits.maxConnections))
        var options = UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
        // A request line lws cannot parse (a method it does not know) goes to the first
        // protocol as a raw socket, where it is answered 405 or 400 instead of a bare 403.
        options |= UInt64(LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG)
        // With IPv6 on, lws ignores `iface` for IPv4 addresses and listens everywhere.
        if !config.host.contains(":") { options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        if let tls = config.tls {
            // libwebsockets' own TLS (OpenSSL): https and wss on the same port. HTTP/1.1 only:
            // every connection, page or WebSocket, is one connection the server counts, times
            // and closes itself, as without TLS (HTTP/2 would multiplex them).
            options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
            info.ssl_cert_filepath = allocations.string(tls.certificate)
            info.ssl_private_key_filepath = allocations.string(tls.key)
            info.alpn = allocations.string("http/1.1")
        }
        info.options = options
        return info
    }

    private func makeProtocols() -> UnsafeMutablePointer<lws_protocols> {
        allocations.keep(array: [
            // First: libwebsockets tells it about every connection (accept, raw fallback, destroy).
            lws_protocols(name: allocations.string("http"), callback: connectionCallback,
                          per_session_data_size: 0, rx_buffer_size: 0, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(name: allocations.string(Subprotocol.v1.rawValue), callback: layoutProtocolCallback,
                          per_session_data_size: 0, rx_buffer_size: 16 * 1024, id: 0, user: nil,
                          tx_packet_size: 256 * 1024),
            lws_protocols(name: allocations.string(Subprotocol.v2.rawValue), callback: layoutProtocolCallback,
                          per_session_data_size: 0, rx_buffer_size: 16 * 1024, id: 0, user: nil,
                          tx_packet_size: 256 * 1024),
            lws_protocols(),
        ])
    }

    /// `/stats`, `/rooms`, `/export`, `/r` and the operator's paths (the layout protocol's
    /// callback), then `/`: the files of `Public/`.
    private func makeMounts() -> UnsafeMutablePointer<lws_http_mount> {
        var files = lws_http_mount()
        files.mountpoint = allocations.string("/")
        files.mountpoint_len = 1
        files.origin = allocations.string(config.publicDirectory)
        files.def = allocations.string("index.html")
        files.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        files.extra_mimetypes = UnsafePointer(makeMimeTypes())
        files.cache_max_age = 0

        var next = allocations.keep(files)
        filesMount = UnsafePointer(next)
        for path in [Server.statsPath, Server.roomsPath, Server.exportPath, RoomAddress.pagePath,
                     Server.metricsPath, Server.healthPath, Server.readyPath] {
            var mount = lws_http_mount()
            mount.mount_next = UnsafePointer(next)
            mount.mountpoint = allocations.string(path)
            mount.mountpoint_len = UInt8(path.utf8.count)
            mount.protocol = allocations.string(Server.protocolName)
            mount.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            next = allocations.keep(mount)
        }
        return next
    }

    /// What lws's own MIME table lacks.
    private func makeMimeTypes() -> UnsafeMutablePointer<lws_protocol_vhost_options>? {
        var mimeTypes: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (suffix, type) in [(".mjs", "text/javascript"), (".map", "application/json"),
                               (".webp", "image/webp"), (".wasm", "application/wasm"),
                               (".json", "application/json"), (".svg", "image/svg+xml")] {
            mimeTypes = allocations.keep(lws_protocol_vhost_options(
                next: mimeTypes, options: nil, name: allocations.string(suffix), value: allocations.string(type)))
        }
        return mimeTypes
    }

    /// Clients that offer no subprotocol are served the layout protocol too.
    private func makeProtocolOptions() -> UnsafeMutablePointer<lws_protocol_vhost_options> {
        let defaultOption = allocations.keep(lws_protocol_vhost_options(
            next: nil, options: nil, name: allocations.string("default"), value: allocations.string("1")))
        return allocations.keep(lws_protocol_vhost_options(
            next: nil, options: UnsafePointer(defaultOption), name: allocations.string(Server.protocolName),
            value: allocations.string("")))
    }

    func scheduleStatsTimer() {
        let timer = ServiceTimer { [unowned self] in self.statsTimerFired() }
        statsTimer = timer
        armStatsTimer()
    }

    func scheduleSweepTimer() {
        let timer = ServiceTimer { [unowned self] in
            self.sweepConnections()
            self.closeLongWaits(now: Uptime.seconds())
            self.keepWaitingExportsAlive()
            self.reportToCluster()
            self.host.sweep(now: Uptime.seconds())
            if let context = self.context { self.sweepTimer?.schedule(on: context, after: 1_000_000) }
        }
        sweepTimer = timer
        if let context { timer.schedule(on: context, after: 1_000_000) }
    }

    func armStatsTimer() {
        guard let context, let statsTimer else { return }
        statsTimer.schedule(on: context, after: 1_000_000)
    }
}
