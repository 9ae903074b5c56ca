import ArgumentParser
import LumenPlatform

/// The `lumen` command line, as a library: the `lumen` executable calls `main()`, and
/// programs (and tests) that register codecs or kernels of their own run `run(_:)` in
/// process, so the command line sees them too.
public struct LumenCommand: ParsableCommand {
    static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "lumen",
        abstract: "Core Image-style filter pipelines for JPEG, PNG, TIFF, WebP, HEIC, AVIF and GIF.",
        version: version,
        subcommands: [Apply.self, Batch.self, Thumbnail.self, Render.self, Transition.self, Filters.self, Formats.self, Info.self,
                      Convert.self, Explain.self, Assets.self]
    )

    public init() {}

    /// Runs `arguments` (without the program name) in this process, throwing what the
    /// command throws instead of exiting.
    public static func run(_ arguments: [String]) throws {
        var command = try parseAsRoot(arguments)
        try command.run()
    }

    /// Runs the command line. Usage errors exit with 2, like chain and input errors (the
    /// exit codes the README lists), and show the usage of the subcommand they concern.
    public static func main() {
        // `lumen --version` answers before the argument parser is built: ArgumentParser's
        // reflection over every command (protocol-conformance scans of the whole binary)
        // costs more than the rest of the process start, and a version check needs none of it.
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            print(version)
            return
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let command: ParsableCommand
        if let parsed = parsedBySubcommandAlone(arguments) {
            command = parsed
        } else {
            do {
                command = try parseAsRoot(arguments)
            } catch {
                exit(with: error, in: Self.self)
            }
        }
        do {
            var running = command
            try running.run()
        } catch {
            exit(with: error, in: type(of: command))
        }
    }

    /// The common case, a subcommand and its options, parsed by that subcommand alone.
    /// Building the parser of the whole tree reflects over all twelve commands and scans the
    /// binary's protocol conformances, which costs a one-process-per-image job (a shell loop,
    /// a job array) more than its render. A request for help or the version goes to the
    /// tree (the subcommand alone would answer help as a command of its own, without
    /// `lumen` in its usage), as does whatever the subcommand refuses, so help and error
    /// messages are the tree's.
    static func parsedBySubcommandAlone(_ arguments: [String]) -> ParsableCommand? {
        let treeLevel = ["-h", "--help", "-help", "help", "--version", "--experimental-dump-help", "--generate-completion-script"]
        guard let name = arguments.first, !arguments.contains(where: treeLevel.contains),
              let subcommand = configuration.subcommands.first(where: { $0._commandName == name })
        else { return nil }
        return try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// The names from `lumen` down to `command` ("assets", "resolve"); nil when it is not in the tree.
    static func commandPath(to command: ParsableCommand.Type, from parent: ParsableCommand.Type = LumenCommand.self) -> [String]? {
        for subcommand in parent.configuration.subcommands {
            if subcommand == command { return [subcommand._commandName] }
            if let below = commandPath(to: command, from: subcommand) { return [subcommand._commandName] + below }
        }
        return nil
    }

    private static func exit(with error: Error, in command: ParsableCommand.Type) -> Never {
        guard command.exitCode(for: error) == .validationFailure else { command.exit(withError: error) }
        var message = command.fullMessage(for: error)
        // A command's own message knows neither the commands above it nor, in its "See …
        // --help" line, `lumen` (its usage line has it when it is marked `underLumen`).
        if command != Self.self, let path = commandPath(to: command) {
            let name = command._commandName, full = (["lumen"] + path).joined(separator: " ")
            for prefix in ["lumen ", ""] {
                message = message.replacing("Usage: \(prefix)\(name) ", with: "Usage: \(full) ")
                    .replacing("See '\(prefix)\(name) --help'", with: "See '\(full) --help'")
            }
        }
        StandardStreams.writeError(message + "\n")
        exitProcess(2)
    }
}

extension CommandConfiguration {
    /// A subcommand's configuration, marked as running under `lumen`. Parsed alone (see
    /// `parsedBySubcommandAlone`), it then says `Usage: lumen NAME`, and ArgumentParser
    /// skips its check for `--generate-completion-script`, which builds and runs two more
    /// parsers: 10 % of a QR render's process (`perf`), for a request the fast path never
    /// sees (it goes to the tree, which still answers it). In the tree only the root's mark
    /// is read.
    func underLumen() -> CommandConfiguration {
        var configuration = self
        configuration._superCommandName = "lumen"
        return configuration
    }
}
