import Foundation
import Testing
import LumenPlatform
@testable import LumenCLI

/// `lumen` parses the usual command line (a subcommand and its options) with that
/// subcommand alone, skipping the parser of the whole tree (about a tenth of a QR code's
/// process). It must parse exactly as the tree does, and leave everything else to the tree.
@Suite struct SubcommandParsingTests {
    func dumped(_ command: Any) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test func theSubcommandAloneParsesAsTheWholeTreeDoes() throws {
        let lines: [[String]] = [
            ["render", "-e", "qrCodeGenerator message=\"x\"", "-o", "a.png"],
            ["render", "-e", "constantColor color=#ff0000", "--size", "20x10", "-o", "-", "--format", "png"],
            ["convert", "a.jpg", "-o", "b.webp", "--quality", "80", "--keep", "icc"],
            ["thumbnail", "a.jpg", "b.jpg", "-s", "400x", "-o", "out", "--crop", "attention"],
            // Values are checked when the command runs, by both alike.
            ["convert", "a.jpg", "-o", "b.jpg", "--quality", "500"],
            ["apply", "-e", "gaussianBlur radius=3", "a.jpg", "-o", "b.png", "--threads", "2", "--stats"],
            ["info", "a.jpg", "--json"],
            ["filters", "describe", "gaussianBlur"],
            ["filters"],
            ["formats"], ["formats", "--json"],  // a command named by its type, not its configuration
            ["batch", "--from", "list.txt", "-e", "sepiaTone", "-o", "out", "--jobs", "2"],
        ]
        for line in lines {
            let fast = try #require(LumenCommand.parsedBySubcommandAlone(line), "\(line)")
            let tree = try LumenCommand.parseAsRoot(line)
            #expect(type(of: fast) == type(of: tree), "\(line)")
            #expect(dumped(fast) == dumped(tree), "\(line)")
        }
    }

    /// The subcommand alone parses `--help` to a help command of its own (usage without
    /// `lumen`), so these must not reach it.
    @Test func helpVersionAndMistakesAreTheTreesToAnswer() {
        let lines: [[String]] = [
            [], ["--version"], ["--help"], ["help", "render"], ["render", "--help"], ["convert", "-h"], ["formats", "-help"],
            ["render", "--experimental-dump-help"], ["convert", "--generate-completion-script", "bash"],
            ["convert"], ["convert", "a.jpg", "-o", "b.jpg", "--no-such-option"], ["frobnicate"], ["render", "--version"],
        ]
        for line in lines {
            #expect(LumenCommand.parsedBySubcommandAlone(line) == nil, "\(line)")
        }
    }
}

/// `transition -o` frame patterns go to C's printf with one integer: only patterns that
/// read exactly that integer pass, and what they make is what Foundation's formatter makes.
@Suite struct FramePatternTests {
    @Test func onlyOneIntegerConversionPasses() {
        for pattern in ["%d.png", "frame-%03d.png", "a%%b%2d", "%010d"] {
            #expect(Transition.isFramePattern(pattern), "\(pattern)")
            #expect(String(printf: pattern, Int32(7)) == String(format: pattern, 7), "\(pattern)")
        }
        for pattern in ["%s.png", "%d%d", "%x", "%12345d", "%0010d", "none.png", "%\u{0663}d", "%½d", "%ld", "%", "%%"] {
            #expect(!Transition.isFramePattern(pattern), "\(pattern)")
        }
    }
}
