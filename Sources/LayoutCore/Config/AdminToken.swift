/// The server's admin token (`serve --admin-token-file FILE`, or `$FORCELAYOUT_ADMIN_TOKEN`;
/// never the command line, which `ps` shows): whoever brings it is the owner of every room, and
/// `GET /rooms` lists private rooms to it. Only its digest is kept once read.
public enum AdminToken {
    public static let variable = "FORCELAYOUT_ADMIN_TOKEN"
    /// 128 bits of base64, at least: shorter ones could be guessed.
    static let minimumBytes = 22
    static let maximumBytes = 256

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The token's digest: from `file` (read with `readFile`; one final newline dropped) or from
    /// `environment`; nil when neither gives one. No error echoes the token.
    public static func resolve(file: String?, environment: [String: String],
                               readFile: (String) throws -> [UInt8]) throws(Problem) -> SecretDigest? {
        let fromEnvironment = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        var token: [UInt8]
        var source: String
        if let file {
            guard fromEnvironment == nil else {
                throw Problem(description: "the admin token is given twice: --admin-token-file and \(variable); give one")
            }
            do {
                token = try readFile(file)
            } catch {
                throw Problem(description: "--admin-token-file \(file): cannot read it (\(error))")
            }
            if token.last == UInt8(ascii: "\n") { token.removeLast() }
            if token.last == UInt8(ascii: "\r") { token.removeLast() }
            source = "--admin-token-file \(file)"
        } else if let fromEnvironment {
            token = Array(fromEnvironment.utf8)
            source = variable
        } else {
            return nil
        }
        // Token characters only: it may ride in a subprotocol offer (`HandshakeKey`) as well as
        // in an `Authorization` header.
        guard (minimumBytes...maximumBytes).contains(token.count), token.allSatisfy(HTTPResponse.isTokenCharacter) else {
            throw Problem(description: "\(source): the admin token must be one line of \(minimumBytes) to \(maximumBytes) characters of A-Z, a-z, 0-9 and !#$%&'*+-.^_`|~ (e.g. openssl rand -base64 32 | tr -d '=+/')")
        }
        return SecretDigest(of: token)
    }
}
