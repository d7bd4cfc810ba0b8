import CLibWebSockets
import LayoutCore
import LayoutRooms

/// Exports of rooms that are only on disk: read, checked and encoded by the file reader
/// (`StateFileReader`), never on the service thread. One job per room file and format: every
/// request that comes while it runs waits for the same document, and a later one shares it
/// while connections still write it and the file has not changed. A file found unusable is
/// refused at once until it changes (`FileVerdicts`).
extension Server {
    /// Distinct room files being exported at once (each a job of the file reader); one more is
    /// answered 503 with `Retry-After`.
    static let maxFileExportJobs = 8

    /// A room and a format: a room file's export job (the connections waiting for it share its
    /// document), and the key of a room's last document size.
    struct ExportKey: Hashable, Sendable {
        let name: RoomName
        let format: LayoutExport.Format
    }

    /// What a file export job found.
    enum FileExportOutcome: Sendable {
        /// The document, the stamp its file had when read, and the room's access (each request
        /// waiting for it is judged by it).
        case document([UInt8], stamp: FileStamp?, access: RoomAccess)
        case missing
        case refused(path: String, why: String, stamp: FileStamp?)
    }

    /// A room only on disk: joins the job reading its file, or starts one.
    func exportFromFile(_ wsi: OpaquePointer, name: RoomName, format: LayoutExport.Format) -> Int32 {
        let job = ExportKey(name: name, format: format)
        if fileExportJobs[job] != nil {
            fileExportJobs[job]!.append(wsi)
            return 0
        }
        guard let path = host.files.path(for: name), let stamp = FileStamp(path: path) else {
            endExport(wsi)
            return notFound(wsi)
        }
        if let why = host.refusedFiles.refusal(of: path, stamp: stamp) {
            logger.info("export of \(name) to \(peerAddress(wsi)): refused without reading, the file is unchanged since: \(why)")
            endExport(wsi)
            return busy(wsi, "the room's file is unusable (see the server's log)\n", retry: false)
        }
        guard fileExportJobs.count < Self.maxFileExportJobs else {
            logger.info("refused export of \(name) to \(peerAddress(wsi)): \(Self.maxFileExportJobs) room files are being exported")
            endExport(wsi)
            return busy(wsi, "too many exports under way; try again later\n")
        }
        fileExportJobs[job] = [wsi]
        let limits = config.limits, done = fileExports
        host.reader.submit(after: host.closing[name]) {
            let (result, stamp) = StateFileReader.read(path, limits: limits)
            switch result {
            case .success(let saved?):
                let export = LayoutExport(room: name.description, tick: 0, snapshot: saved.layout, catalog: saved.catalog)
                done.post((job, .document(export.encoded(as: format), stamp: stamp, access: saved.access)))
            case .success(nil):
                done.post((job, .missing))
            case .failure(let failure):
                done.post((job, .refused(path: path, why: failure.description, stamp: stamp)))
            }
        }
        return 0
    }

    /// The document of a room file's export that connections are still writing, when the file
    /// has not changed since: a new request shares it (no read, no new bytes).
    func heldDocument(of job: ExportKey) -> (body: HTTPBody, access: RoomAccess)? {
        guard let held = heldFileDocuments[job], let path = host.files.path(for: job.name),
              FileStamp(path: path) == held.stamp else { return nil }
        return (held.body, held.access)
    }

    /// Documents the file reader made: every connection waiting for the job gets it.
    func fileExportsReady() {
        for (job, outcome) in fileExports.take() {
            let waiting = fileExportJobs.removeValue(forKey: job) ?? []
            switch outcome {
            case .document(let bytes, let stamp, let access):
                let body = HTTPBody(bytes)
                if let stamp { heldFileDocuments[job] = (stamp, body, access) }
                for wsi in waiting {
                    let verdict = exports[wsi].map { access.exportVerdict($0.credential) } ?? .allowed
                    documentArrived(wsi, verdict == .allowed ? .ready(body) : .denied(verdict))
                }
            case .missing:
                for wsi in waiting { documentArrived(wsi, .missing) }
            case .refused(let path, let why, let stamp):
                logger.error("export of \(job.name): \(why)")
                if let stamp { host.refusedFiles.refuse(path, stamp: stamp, why: why) }
                for wsi in waiting { documentArrived(wsi, .refused) }
            }
        }
    }

    /// A room file's document no connection is writing any more is not kept for sharing.
    func dropUnheldFileDocuments() {
        heldFileDocuments = heldFileDocuments.filter { exportBudget.holds($0.value.body.identity) }
    }
}

/// Exports the file reader finished, by job (`Server.ExportKey`).
typealias FileExports = ServiceQueue<(job: Server.ExportKey, outcome: Server.FileExportOutcome)>
