import Foundation

/// Whether a request path may be served from the public folder. libwebsockets decodes `%xx`
/// and collapses `..` before we see the path, but it follows symbolic links: a link inside
/// `Public/` to `/etc/passwd` would be served. So the path is resolved (links included) and
/// must stay inside the folder's own resolved path.
public struct PublicFiles: Sendable {
    public let root: String
    private let resolvedRoot: String

    public init(root: String) {
        self.root = root
        resolvedRoot = Self.resolve(root) ?? root
    }

    /// False for a path that resolves outside the folder. A missing file is judged by its
    /// deepest existing folder (the file server answers 404 for it).
    public func allows(_ path: String) -> Bool {
        guard !path.contains("\0") else { return false }
        var candidate = root + (path.hasPrefix("/") ? path : "/" + path)
        while true {
            if let resolved = Self.resolve(candidate) { return isInside(resolved) }
            guard let slash = candidate.lastIndex(of: "/"), candidate.count > root.count else { return false }
            candidate = String(candidate[..<slash])
        }
    }

    private func isInside(_ resolved: String) -> Bool {
        resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/")
    }

    private static func resolve(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
