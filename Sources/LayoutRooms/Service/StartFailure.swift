/// Why the server cannot start (`forcelayout serve` prints it and exits 1): room `main`'s state
/// file, the public folder, the port, the open-file limit.
public struct StartFailure: Error, CustomStringConvertible {
    public let description: String

    package init(description: String) { self.description = description }
}
