import ArgumentParser

/// `quintet library …`: the library's graph tools (more library subcommands join here).
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Library tools: the whole-library map.",
        subcommands: [LibraryGraphCommand.self]
    )
}
