import CLibWebSockets
import Foundation
import LayoutCore
import LayoutServer
import LoadTool

/// `forcelayout import`'s connection: one libwebsockets client (protocol v2, whose frames it
/// skips but for their cell count) driving a `RoomDriver` (an `ImportSession` sending a graph
/// file, a `PlaybackSession` playing a recording), with the driver's window of messages in flight,
/// paced under the server's rate limit. Runs on the calling thread until the import ends. When the session asks for a
/// new connection (a batch unanswered, the server closed this one) it opens one, a second
/// later, and the session resumes on its `hello`.
public final class ImportClient<Driver: RoomDriver>: ClientCallbackTarget {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let url: WebSocketURL
    /// The room's link (or the admin token), offered as one more subprotocol name.
    private let key: String?
    private var session: Driver
    private let progress: (Driver) -> Void
    /// What libwebsockets' callback finds through the context's user pointer.
    private lazy var callbackBox = ClientCallbackBox(self)
    private let allocations = CAllocations()
    /// Messages to write, in order (the pace lets them out one by one).
    private var outgoing: [[UInt8]] = []
    private var incoming: [UInt8] = []
    private var bucket: TokenBucket?
    private var outcome: Result<Driver.Summary, Failure>?
    private var context: OpaquePointer?
    /// The connection open now (nil between two).
    private var connection: OpaquePointer?
    /// This connection is being closed for a new one (`ImportSession.Action.reconnect`).
    private var replacing = false
    /// When to open the next connection (nil: none wanted).
    private var reconnectAt: Double?

    public init(url: WebSocketURL, driver: Driver, key: String? = nil, progress: @escaping (Driver) -> Void = { _ in }) {
        self.url = url
        self.key = key
        session = driver
        self.progress = progress
    }

    public func run() throws(Failure) -> Driver.Summary {
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(allocations.keep(array: [
            lws_protocols(name: allocations.string("import"), callback: importClientCallback, per_session_data_size: 0,
                          rx_buffer_size: 64 * 1024, id: 0, user: nil, tx_packet_size: 0),
            lws_protocols(),
        ]))
        info.user = Unmanaged.passUnretained(callbackBox).toOpaque()
        forcelayout_lws_set_log_level(Int32(LLL_ERR))
        guard let context = lws_create_context(&info) else { throw Failure(description: "cannot start libwebsockets") }
        self.context = context
        defer { lws_context_destroy(context) }
        guard connect() else { throw Failure(description: "cannot connect to \(url)") }
        while outcome == nil {
            if lws_service(context, 100) < 0 { break }
            let now = Self.seconds()
            if let at = reconnectAt, now >= at, connection == nil {
                reconnectAt = nil
                if !connect() { act(on: session.connectionLost(now: now), wsi: nil) }
            } else if let connection {
                act(on: session.tick(now: now), wsi: connection)
            } else if reconnectAt == nil {
                act(on: session.tick(now: now), wsi: nil)
            }
        }
        return try (outcome ?? .failure(Failure(description: "the connection to \(url) ended"))).get()
    }

    private func connect() -> Bool {
        var connect = lws_client_connect_info()
        connect.context = context
        connect.address = allocations.string(url.host)
        connect.port = Int32(url.port)
        connect.path = allocations.string(url.path)
        connect.host = connect.address
        // The key rides in the handshake's headers, never in the address (`HandshakeKey`).
        connect.protocol = allocations.string(WireProtocol.v2.subprotocol + (key.map { ", \(HandshakeKey.offerPrefix)\($0)" } ?? ""))
        connect.local_protocol_name = allocations.string("import")
        connect.ietf_version_or_minus_one = -1
        return lws_client_connect_via_info(&connect) != nil
    }

    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            connection = wsi
        case LWS_CALLBACK_CLIENT_RECEIVE:
            if let input { incoming += UnsafeRawBufferPointer(start: input, count: length) }
            guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
            defer { incoming.removeAll(keepingCapacity: true) }
            if lws_frame_is_binary(wsi) != 0 {
                if let head = V2FrameHead(incoming) { act(on: session.receivedFrame(cells: Int(head.n)), wsi: wsi) }
                return 0
            }
            guard let message = try? JSONParser.parse(incoming) else { return 0 }
            act(on: session.received(message), wsi: wsi)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            if replacing { return -1 }
            return write(wsi)
        case LWS_CALLBACK_TIMER:
            lws_callback_on_writable(wsi)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let why = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "refused"
            // The HTTP status the upgrade was answered with (0: none came), said in words.
            let status = Int(lws_http_client_http_response(wsi))
            connection = nil
            guard outcome == nil else { break }
            if reconnectAt == nil, !replacing, session.connecting {
                outcome = .failure(Failure(description: ImportAddress.refusal(status: status, detail: why, url: url.description)))
            } else {
                ended()
            }
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            // The room's access turned this import away: no use trying again.
            if let input, length >= 2, outcome == nil {
                let bytes = UnsafeRawBufferPointer(start: input, count: length)
                let status = UInt32(bytes[0]) << 8 | UInt32(bytes[1])
                if [AccessClose.linkRotated, AccessClose.forbidden, AccessClose.notFound].contains(status) {
                    let reason = String(decoding: bytes.dropFirst(2), as: UTF8.self)
                    outcome = .failure(Failure(description: "\(url) closed the connection (\(status)): \(reason)"
                                                   + ImportAddress.hint(closeStatus: status)))
                }
            }
        case LWS_CALLBACK_CLIENT_CLOSED:
            connection = nil
            if outcome == nil { ended() }
        default:
            break
        }
        return 0
    }

    /// The connection is gone: the next one a second later, when the session wants one.
    private func ended() {
        outgoing = []
        if replacing {
            replacing = false
        } else {
            act(on: session.connectionLost(now: Self.seconds()), wsi: nil)
        }
        if outcome == nil, reconnectAt == nil { reconnectAt = Self.seconds() + 1 }
    }

    private func act(on action: SessionAction<Driver.Summary>, wsi: OpaquePointer?) {
        if case .wait = action { return }
        progress(session)
        switch action {
        case .send(let messages):
            if bucket == nil {
                // Under the server's limit: 95% of its rate, half its burst. The connection is
                // the import's alone (the page's importer keeps 80%: its user may drag meanwhile),
                // and the server's bucket, fuller and faster than this one, never runs dry.
                bucket = TokenBucket(rate: session.messagesPerSecond * 0.95, burst: max(1, session.messageBurst / 2),
                                     now: Self.seconds())
            }
            outgoing += messages
            if let wsi { lws_callback_on_writable(wsi) }
        case .wait:
            break
        case .reconnect:
            outgoing = []
            if let wsi {
                replacing = true
                lws_callback_on_writable(wsi)
            } else {
                reconnectAt = Self.seconds() + 1
            }
        case .finished(let summary):
            outcome = .success(summary)
        case .failed(let why):
            outcome = .failure(Failure(description: why))
        }
    }

    /// One message per writable, when the pace allows (else a timer brings the next try); the
    /// next writable is asked for while more wait.
    private func write(_ wsi: OpaquePointer) -> Int32 {
        guard let message = outgoing.first else { return 0 }
        guard bucket?.take(now: Self.seconds()) ?? true else {
            lws_set_timer_usecs(wsi, lws_usec_t(1_000_000 / max(1, session.messagesPerSecond)))
            return 0
        }
        outgoing.removeFirst()
        if !outgoing.isEmpty { lws_callback_on_writable(wsi) }
        var buffer = [UInt8](repeating: 0, count: forcelayout_lws_pre) + message
        let written = buffer.withUnsafeMutableBufferPointer {
            lws_write(wsi, $0.baseAddress! + forcelayout_lws_pre, message.count, LWS_WRITE_TEXT)
        }
        return written == message.count ? 0 : -1
    }

    private static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

extension ImportClient where Driver == ImportSession {
    /// `replace`: the room is cleared before the graph goes (`ImportSession.replace`).
    public convenience init(url: WebSocketURL, graph: GraphFile, key: String? = nil, replace: Bool = false,
                            progress: @escaping (ImportSession) -> Void = { _ in }) {
        self.init(url: url, driver: ImportSession(graph: graph, replace: replace), key: key, progress: progress)
    }
}

/// An `ImportClient` of any driver, as libwebsockets' callback (a C function, not generic) calls it.
protocol ClientCallbackTarget: AnyObject {
    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int) -> Int32
}

/// The context's user pointer: the client, whatever its driver (it owns the box).
final class ClientCallbackBox {
    unowned let target: any ClientCallbackTarget

    init(_ target: any ClientCallbackTarget) { self.target = target }
}

/// libwebsockets' callback: finds the `ImportClient` through the context's user pointer.
func importClientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let opaque = lws_context_user(context) else { return 0 }
    return Unmanaged<ClientCallbackBox>.fromOpaque(opaque).takeUnretainedValue().target
        .handle(wsi: wsi, reason: reason, input: input, length: length)
}
