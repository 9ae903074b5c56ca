import ArgumentParser
import Foundation

@main
struct LumenCommand: ParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "lumen",
        abstract: "Core Image-style filter pipelines for JPEG, PNG, TIFF, WebP, HEIC, AVIF and GIF.",
        version: version,
        subcommands: [Apply.self, Batch.self, Thumbnail.self, Render.self, Transition.self, Filters.self, Info.self, Convert.self, Explain.self, Assets.self]
    )

    /// Runs the command line. Usage errors exit with 2, like chain and input errors (the
    /// exit codes the README lists), and show the usage of the subcommand they concern.
    static func main() {
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(with: error, in: Self.self)
        }
        do {
            var running = command
            try running.run()
        } catch {
            exit(with: error, in: type(of: command))
        }
    }

    private static func exit(with error: Error, in command: ParsableCommand.Type) -> Never {
        guard command.exitCode(for: error) == .validationFailure else { command.exit(withError: error) }
        var message = command.fullMessage(for: error)
        // A subcommand's own usage does not know it runs under `lumen`.
        if command != Self.self, let name = command.configuration.commandName, !message.contains("lumen \(name)") {
            message = message.replacingOccurrences(of: "Usage: \(name) ", with: "Usage: lumen \(name) ")
                .replacingOccurrences(of: "See '\(name) --help'", with: "See 'lumen \(name) --help'")
        }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(2)
    }
}
