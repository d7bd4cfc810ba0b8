import Foundation
import LayoutCore

/// The client numbers' reservation of a server with a state directory: `STATE_DIR/.clients.json`
/// (not a room's file: room names start with a letter or digit), or beside `--state`'s file,
/// `FILE.clients`. `{"format":"forcelayout-clients","reservation":N}`, written as state files are
/// (a temporary file, fsync, rename).
package struct ClientReservationFile: ClientReservationStore {
    package static let format = "forcelayout-clients"
    let path: String

    package init(path: String) { self.path = path }

    /// Where a server with this state directory (or, without one, this state file) keeps it.
    package static func path(directory: String?, statePath: String?) -> String? {
        if let directory { return URL(fileURLWithPath: directory).appendingPathComponent(".clients.json").path }
        return statePath.map { $0 + ".clients" }
    }

    package func read() throws(StoreFailure) -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let refused = StoreFailure("\(path) is not a client id reservation (\(Self.format)): move it away, and client ids may repeat those of the cells' owners")
        guard let data = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse(Array(data)),
              case .string(Self.format)? = value["format"], case .number(let number)? = value["reservation"],
              let reservation = Int(exactly: number), (1...(1 << 53)).contains(reservation) else {
            throw refused
        }
        return reservation
    }

    package func write(_ reservation: Int) throws(StoreFailure) {
        do {
            try AtomicFile.write(Array(#"{"format":"\#(Self.format)","reservation":\#(reservation)}"#.utf8), to: path)
        } catch {
            throw StoreFailure("cannot write \(path): \(error)")
        }
    }
}
