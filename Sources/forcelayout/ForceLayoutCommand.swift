import ArgumentParser
import LayoutServer

@main
struct ForceLayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forcelayout",
        abstract: "A live, shared force-directed layout served over WebSockets.",
        version: BuildInfo.line,
        subcommands: [Serve.self, Import.self, Bench.self, Load.self],
        defaultSubcommand: Serve.self
    )
}
