import CLibWebSockets
import LayoutCore

extension Subprotocol {
    /// The subprotocol libwebsockets bound the connection to (v1 for clients that offered none).
    init(wsi: OpaquePointer) {
        let name = lws_get_protocol(wsi).map { String(cString: $0.pointee.name) }
        self = name == Subprotocol.v2.rawValue ? .v2 : .v1
    }
}
