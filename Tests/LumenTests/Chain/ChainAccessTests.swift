import Foundation
import Testing
@testable import Lumen

/// Chains someone else wrote: what `load`, `chain` and `asset` may read.
@Suite struct ChainAccessTests {
    /// A folder with a photo inside, and another folder beside it with a secret image.
    static func folders() throws -> (allowed: URL, outside: URL) {
        let root = Paths.temporaryDirectory()
        let allowed = root.appendingPathComponent("allowed"), outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: allowed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.codec("rgb8.png"), to: allowed.appendingPathComponent("ok.png"))
        try FileManager.default.copyItem(at: Paths.codec("rgba8.png"), to: outside.appendingPathComponent("secret.png"))
        return (allowed, outside)
    }

    func run(_ text: String, in directory: URL, access: FileAccess) throws -> Image {
        try FilterChain(text, directory: directory, fileAccess: access).apply(to: nil, settings: [:])
    }

    @Test func loadsStayInsideTheirFolders() throws {
        let (allowed, outside) = try Self.folders()
        let access = FileAccess.roots([allowed])
        _ = try run("sourceOver image=load(\"ok.png\") backgroundImage=load(\"ok.png\")", in: allowed, access: access)
        let escapes = ["load(\"../outside/secret.png\")", "load(\"\(outside.path)/secret.png\")"]
        try FileManager.default.createSymbolicLink(at: allowed.appendingPathComponent("link.png"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.png"))
        for escape in escapes + ["load(\"link.png\")"] {
            do {
                _ = try run("sourceOver image=\(escape) backgroundImage=load(\"ok.png\")", in: allowed, access: access)
                Issue.record("\(escape) was read")
            } catch let error as LumenError {
                guard case let .chain(_, line, column, message, _) = error else { Issue.record("\(error)"); continue }
                #expect(line == 1 && column > 1 && message.contains("outside the folders chains may read"), "\(message)")
            }
        }
        // Unrestricted (your own chains), the same escape reads.
        _ = try run("sourceOver image=load(\"../outside/secret.png\") backgroundImage=load(\"ok.png\")", in: allowed, access: .unrestricted)
        #expect(throws: LumenError.self) { try run("colorInvert image=load(\"ok.png\")", in: allowed, access: .none) }
    }

    @Test func onlyChainFilesAreReadAsChainsAndOthersAreNeverQuoted() throws {
        let directory = Paths.temporaryDirectory()
        let secret = directory.appendingPathComponent("notes.txt")
        try "password: hunter2\n".write(to: secret, atomically: true, encoding: .utf8)
        do {
            _ = try run("chain(\"notes.txt\")", in: directory, access: .unrestricted)
            Issue.record("read as a chain")
        } catch {
            #expect("\(error)".contains("chain files end in .chain") && !"\(error)".contains("hunter2"))
        }
    }

    @Test func includesNestAtMost32Deep() throws {
        let directory = Paths.temporaryDirectory()
        for i in 0..<40 {
            let next = i == 39 ? "colorInvert" : "chain(\"c\(i + 1).chain\")"
            try "\(next)\n".write(to: directory.appendingPathComponent("c\(i).chain"), atomically: true, encoding: .utf8)
        }
        let input = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        do {
            _ = try FilterChain(contentsOf: directory.appendingPathComponent("c0.chain")).apply(to: input, settings: [:])
            Issue.record("40 levels were built")
        } catch {
            #expect("\(error)".contains("at most 32 deep"))
        }
        // 20 levels are fine.
        try "colorInvert\n".write(to: directory.appendingPathComponent("c20.chain"), atomically: true, encoding: .utf8)
        _ = try FilterChain(contentsOf: directory.appendingPathComponent("c0.chain")).apply(to: input, settings: [:])
    }

    @Test func theCommandLineConfinesChains() throws {
        let (allowed, outside) = try Self.folders()
        let output = Paths.temporaryDirectory().appendingPathComponent("out.png").path
        let chain = "sourceOver backgroundImage=load(\"\(outside.path)/secret.png\")"
        let confined = try CommandLineTests.lumen(["apply", "-e", chain, "--allow-read", allowed.path, allowed.appendingPathComponent("ok.png").path, "-o", output])
        #expect(confined.status == 2 && confined.stderr.contains("outside the folders"))
        let closed = try CommandLineTests.lumen(["apply", "-e", chain, "--no-file-access", allowed.appendingPathComponent("ok.png").path, "-o", output])
        #expect(closed.status == 2 && closed.stderr.contains("file access is off"))
        let open = try CommandLineTests.lumen(["apply", "-e", chain, allowed.appendingPathComponent("ok.png").path, "-o", output])
        #expect(open.status == 0, "\(open.stderr)")
    }
}

/// `a = f | g` on one line means what it means on two.
@Suite struct OneLineNameTests {
    @Test func aNameIsTheLinesResultSoFar() throws {
        let input = FilterReferenceTests.sample
        let context = RenderContext()
        let oneLine = try FilterChain("s = lanczosScale scale=0.5 | crop image=s rectangle=[0, 0, s.width/2, s.height]")
            .apply(to: input, settings: [:])
        let twoLines = try FilterChain("s = lanczosScale scale=0.5\ncrop image=s rectangle=[0, 0, s.width/2, s.height]")
            .apply(to: input, settings: [:])
        #expect(oneLine == twoLines)
        #expect(try context.render(oneLine, format: .rgbaFloat) == context.render(twoLines, format: .rgbaFloat))
        // After the line the name is the whole pipeline's result, as filters/crossfade.chain uses it.
        let after = try FilterChain("d = colorInvert | exposureAdjust ev=1\nsourceOver image=d background=input").apply(to: input, settings: [:])
        let spelled = try FilterChain("a = colorInvert\nd = exposureAdjust image=a ev=1\nsourceOver image=d background=input").apply(to: input, settings: [:])
        #expect(after == spelled)
    }
}
