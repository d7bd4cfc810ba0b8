import ArgumentParser
import Foundation
import ImportTool
import LayoutServer
import LoadTool

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a graph file to a room of a running server: its nodes become cells, its links links.",
        discussion: """
        FILE is node-link JSON (as d3's examples and networkx's node_link_data write it: \
        {"nodes":[{"id":…,"label":…,"group":…}],"links":[{"source":…,"target":…}]}) or a CSV/TSV \
        edge list (two columns a line, optional header such as source,target). A node's label is \
        its label, else its name, else its id; group, color, radius, x and y are taken when valid. \
        Its id is kept as the cell's key and its other members as its attributes (a link's too: \
        weight, value, …; an edge list's further columns), so GET /export gives them back; \
        attributes over the server's maxAttrBytes are left out. \
        What a room cannot hold (a label over 80 characters, a self link, a repeated link) is \
        fixed or left out and listed at the end. Cells and links go in batches within the \
        server's limits, paced under its rate limit, with a progress bar on a terminal. \
        By default the graph is added to what the room holds (importing twice gives two \
        copies); with --replace the room is cleared first, so it holds this graph alone. \
        A mistyped room in --url is said before connecting. \
        FILE may also be a recording (FILE.flhistory, from GET /export/NAME.flhistory): it is \
        played back into the room as it happened, the room paused meanwhile so the cells are \
        where the recording has them: its first moment's cells, links, parameters and pins, \
        then each change at its recorded pace (--speed) and the cells' places at each keyframe; \
        the room is unpaused at the end unless the recording ended paused. The room must be \
        empty (or --replace). A recording whose tail is not whole plays what is and says so.
        """
    )

    @Argument(help: "The graph file, or a recording (.flhistory); - for standard input.")
    var file: String

    @Option(help: "The room's WebSocket address.")
    var url = "ws://127.0.0.1:8080/ws/main"

    @Option(help: ArgumentHelp("File holding the room's edit link's secret (what follows #edit= in its address), or the owner's, or the server's admin token; or $FORCELAYOUT_KEY. Never an argument: ps would show it.",
                               valueName: "path"))
    var keyFile: String?

    @Option(help: ArgumentHelp("A recording's pace: 1 as it happened, 2 twice as fast, 0 without pauses (as fast as the server's rate allows).",
                               valueName: "factor"))
    var speed: Double?

    @Flag(help: "Clear the room first (everyone's cells, as the page's Clear does), so that it holds this graph alone; without it the graph is added to what the room holds.")
    var replace = false

    func run() throws {
        let target: WebSocketURL
        do {
            target = try WebSocketURL(url)
        } catch {
            throw ValidationError("--url \(error)")
        }
        // A mistyped room is said before connecting, in the room switcher's words.
        if case .failure(let why) = ImportAddress.room(ofPath: target.path) { fail("--url \(url): \(why)") }
        let bytes: [UInt8]
        if file == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
            bytes = Array(data)
        }
        if Recording.isRecording(bytes) { return try play(bytes, into: target) }
        if speed != nil { throw ValidationError("--speed applies to a recording (a .flhistory file); \(file) is a graph file") }
        let graph: GraphFile
        do {
            graph = try GraphFile.read(bytes)
        } catch {
            fail("\(file): \(error)")
        }
        let key = try self.key()
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) != 0)
        let started = Date()
        let client = ImportClient<ImportSession>(url: target, graph: graph, key: key, replace: replace) { bar.show($0.progress) }
        do {
            let summary = try client.run()
            bar.finish()
            let seconds = Date().timeIntervalSince(started)
            print("imported \(summary.cells) cells and \(summary.links) links from \(file) into \(target)\(replace ? ", replacing what it held," : "") in \(String(format: "%.1f", seconds)) s")
            for note in summary.notes { print("  not imported: \(note)") }
        } catch {
            bar.finish()
            fail("\(error)")
        }
    }

    /// A recording played back into the room (`PlaybackSession`).
    private func play(_ bytes: [UInt8], into target: WebSocketURL) throws {
        let speed = speed ?? 1
        guard speed.isFinite, speed >= 0 else { throw ValidationError("--speed must be 0 or more (0: without pauses), not \(speed)") }
        let recording: Recording
        do {
            recording = try Recording(bytes)
        } catch {
            fail("\(file): \(error)")
        }
        let key = try self.key()
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) != 0)
        let started = Date()
        let driver = PlaybackSession(recording: recording, speed: speed, replace: replace)
        let client = ImportClient(url: target, driver: driver, key: key) { bar.show($0.progress) }
        do {
            let summary = try client.run()
            bar.finish()
            let seconds = Date().timeIntervalSince(started)
            print("played \(file) into \(target)\(replace ? ", replacing what it held," : ""): \(summary.events) events and \(summary.keyframes) keyframes over \(String(format: "%.1f", Double(summary.duration) / 1000)) s of recording, as \(summary.messages) messages in \(String(format: "%.1f", seconds)) s")
            for note in summary.notes { print("  note: \(note)") }
        } catch {
            bar.finish()
            fail("\(error)")
        }
    }

    static let keyVariable = "FORCELAYOUT_KEY"

    /// The secret the import brings: from `--key-file` (one line) or `$FORCELAYOUT_KEY`; nil:
    /// none. Never echoed.
    private func key() throws -> String? {
        let fromEnvironment = ProcessInfo.processInfo.environment[Self.keyVariable].flatMap { $0.isEmpty ? nil : $0 }
        var text: String
        if let keyFile {
            guard fromEnvironment == nil else { throw ValidationError("the key is given twice: --key-file and \(Self.keyVariable); give one") }
            guard let data = FileManager.default.contents(atPath: keyFile) else { throw ValidationError("--key-file \(keyFile): cannot read it") }
            text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            if text.hasSuffix("\r") { text.removeLast() }
        } else if let fromEnvironment {
            text = fromEnvironment
        } else {
            return nil
        }
        // A link pasted whole: the secret after "#edit=" (or "#owner=", "#view=").
        if let hash = text.lastIndex(of: "="), text.contains("#") { text = String(text[text.index(after: hash)...]) }
        guard (1...256).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ",") }) else {
            throw ValidationError("the key must be one line: a room link's secret (22 characters) or the admin token")
        }
        return text
    }

    /// Says why on standard error and exits with status 1.
    private func fail(_ why: String) -> Never {
        FileHandle.standardError.write(Data("forcelayout import: \(why)\n".utf8))
        Foundation.exit(1)
    }
}

/// `[#######.............]  35%  1234/3500` on a terminal's standard error, redrawn in place.
final class ProgressBar {
    private let enabled: Bool
    private var last = -1

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: (done: Int, total: Int)) {
        guard enabled, progress.total > 0 else { return }
        let percent = progress.done * 100 / progress.total
        guard percent != last else { return }
        last = percent
        let filled = percent / 5
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(String(format: "%3d", percent))%  \(progress.done)/\(progress.total)".utf8))
    }

    func finish() {
        guard enabled, last >= 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
