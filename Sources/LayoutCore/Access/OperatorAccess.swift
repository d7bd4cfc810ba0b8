/// Who may read what a server says about itself to its operator (`GET /metrics`): with an
/// admin token set (`--admin-token-file`), whoever brings it; without one, only this machine
/// (a Prometheus or an agent beside the server). A reverse proxy on this machine makes every
/// request local: its recipe (docs/deploy/) keeps `/metrics` to itself.
package enum OperatorAccess: Equatable, Sendable {
    case allowed
    /// The HTTP status to answer and why, in fixed words (no secret in them).
    case refused(status: UInt32, why: String)

    package static func verdict(adminTokenSet: Bool, credential: Credential, peerIsLoopback: Bool) -> OperatorAccess {
        if adminTokenSet {
            switch credential {
            case .admin: return .allowed
            case .none: return .refused(status: 401, why: "the admin token is needed (Authorization: Bearer TOKEN)")
            case .key, .invalid: return .refused(status: 403, why: "this is not the admin token")
            }
        }
        return peerIsLoopback ? .allowed
            : .refused(status: 403, why: "only this machine may read it while no admin token is set (--admin-token-file)")
    }
}
