import ArgumentParser
import QuintetServer

/// The `quintet` command: one binary for the server and every system's tools.
@main
struct Quintet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quintet",
        abstract: "Quintet: a music library graph, a runner's tempo matcher, live radio, crowd maps and a physics playground.",
        version: QuintetVersion.current,
        subcommands: [Serve.self, ScanCommand.self, LibraryCommand.self, TempoCommand.self, CadenceCommand.self, RunnerCommand.self, TagsCommand.self, DemoLibraryCommand.self, Users.self, RadioCommand.self, CrowdCommand.self, Bench.self, PhysicsCommand.self, PlaygroundCommand.self]
    )
}
