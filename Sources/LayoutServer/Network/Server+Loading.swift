import CLibWebSockets

/// Rooms loaded from their files on the reader's thread (`RoomHost+Loading`): their waiting
/// connections get their hello, or a close when the file proved unusable.
extension Server {
    /// RFC 6455's 1011 (the server met a condition that keeps it from serving the request).
    static let cannotServe = LWS_CLOSE_STATUS_UNEXPECTED_CONDITION

    func roomsLoaded() {
        for outcome in host.loads.take() {
            switch host.finishLoad(outcome) {
            case .greet(let name):
                greetWaiting(in: name)
            case .close(let name, let why):
                closeMembers(of: name, Self.cannotServe, why)
            case .tryLater(let name, let why):
                closeMembers(of: name, Self.tryAgainLater, why)
            case .nothing:
                break
            }
        }
    }
}
