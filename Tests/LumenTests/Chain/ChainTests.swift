import Foundation
import Testing
@testable import Lumen

@Suite struct ChainTests {
    static let photo = try! Image(contentsOf: Paths.testdata("photo.jpg"))
    static let exampleNames = (try? FileManager.default.contentsOfDirectory(atPath: Paths.root.appendingPathComponent("filters").path))?
        .filter { $0.hasSuffix(".chain") }.sorted() ?? []

    static func chainError(_ text: String, file: String = "t.chain", input: Image? = photo) -> LumenError? {
        do {
            _ = try FilterChain(text, file: file, directory: Paths.root.appendingPathComponent("filters")).apply(to: input)
            return nil
        } catch let error as LumenError { return error } catch { return nil }
    }

    /// Renders a chain from filters/ on the bundled photo (a small crop keeps debug builds quick).
    static func render(_ name: String, parameters: [String: Any] = [:]) throws -> Bitmap {
        let chain = try FilterChain(contentsOf: Paths.root.appendingPathComponent("filters/\(name)"))
        let output = try chain.apply(to: chain.readsInput ? photo : nil, parameters: parameters)
        // As `lumen apply` does: an infinite output renders the input's extent.
        let rect = output.extent.isInfinite ? (chain.readsInput ? photo.extent : Rect(x: 0, y: 0, width: 800, height: 600)) : output.extent
        return try RenderContext().render(output, in: rect)
    }

    static func mean(_ b: Bitmap, x: Range<Int>, rows: Range<Int>) -> Double {
        var sum = 0.0
        for row in rows { for x in x { let p = b.pixel(x: x, row: row); sum += Double(p.x + p.y + p.z) / 3 } }
        return sum / Double(x.count * rows.count)
    }

    @Test func everyExampleChainIsTested() {
        #expect(Set(Self.exampleNames) == ["artwork.chain", "crossfade.chain", "soft-glow.chain", "thumbnail.chain", "tilt-shift.chain",
                                            "vignette.chain", "vintage.chain", "watermark.chain"])
        for name in Self.exampleNames {
            let text = (try? String(contentsOf: Paths.root.appendingPathComponent("filters/\(name)"), encoding: .utf8)) ?? ""
            #expect(text.hasPrefix("#"), "\(name) starts with a comment saying what it does")
        }
    }

    @Test func vignetteDarkensCornersAndKeepsTheCentre() throws {
        let out = try Self.render("vignette.chain")
        let plain = try RenderContext().render(Self.photo)
        #expect(out.width == 640 && out.height == 400)
        #expect(Self.mean(out, x: 0..<20, rows: 0..<20) < 2)
        #expect(abs(Self.mean(out, x: 310..<330, rows: 190..<210) - Self.mean(plain, x: 310..<330, rows: 190..<210)) < 0.5)
    }

    @Test func thumbnailIsAQuarter() throws {
        let out = try Self.render("thumbnail.chain")
        #expect(out.width == 160 && out.height == 100)
        let half = try Self.render("thumbnail.chain", parameters: ["scale": 0.5])
        #expect(half.width == 320)
    }

    @Test func vintageIsWarmAndDarkerAtTheEdges() throws {
        let out = try Self.render("vintage.chain")
        let centre = out.pixel(x: 320, row: 200)
        #expect(centre.x >= centre.z, "sepia keeps red above blue")
        #expect(Self.mean(out, x: 0..<10, rows: 0..<10) < Self.mean(out, x: 315..<325, rows: 195..<205))
    }

    @Test func softGlowKeepsSizeAndBrightensShadowsSoftly() throws {
        let out = try Self.render("soft-glow.chain")
        #expect(out.width == 640 && out.height == 400)
        let plain = try RenderContext().render(Self.photo)
        #expect(out != plain)
    }

    @Test func watermarkSitsInTheBottomRightCorner() throws {
        let out = try Self.render("watermark.chain")
        let plain = try RenderContext().render(Self.photo)
        // The logo (96×40, 16 px from the right and bottom edges) changes that corner only.
        #expect(abs(Self.mean(out, x: 540..<610, rows: 350..<375) - Self.mean(plain, x: 540..<610, rows: 350..<375)) > 20)
        #expect(Self.mean(out, x: 0..<100, rows: 0..<100) == Self.mean(plain, x: 0..<100, rows: 0..<100))
    }

    @Test func tiltShiftIsSharpInTheMiddleBand() throws {
        let out = try Self.render("tilt-shift.chain")
        let plain = try RenderContext().render(Self.photo)
        var middle = 0.0, top = 0.0
        for x in 0..<640 {
            middle += Double(abs(out.pixel(x: x, row: 200).x - plain.pixel(x: x, row: 200).x))
            top += Double(abs(out.pixel(x: x, row: 10).x - plain.pixel(x: x, row: 10).x))
        }
        #expect(middle == 0 && top > 640)
    }

    @Test func artworkRendersWithoutInput() throws {
        let chain = try FilterChain(contentsOf: Paths.root.appendingPathComponent("filters/artwork.chain"))
        #expect(!chain.readsInput)
        let out = try Self.render("artwork.chain")
        #expect(out.width == 800 && Self.mean(out, x: 390..<410, rows: 290..<310) > Self.mean(out, x: 0..<20, rows: 0..<20))
    }

    @Test func crossfadeIsExactAtBothEnds() throws {
        let start = try Self.render("crossfade.chain", parameters: ["time": 0])
        #expect(start == (try RenderContext().render(Self.photo)))
        let end = try Self.render("crossfade.chain", parameters: ["time": 1])
        #expect(Self.mean(end, x: 0..<640, rows: 0..<400) < Self.mean(start, x: 0..<640, rows: 0..<400))
    }

    @Test func chainFilesAreFiltersWithParams() throws {
        let out = try FilterChain("chain(\"vignette.chain\") inner=0.2 | exposureAdjust ev=0.5", directory: Paths.root.appendingPathComponent("filters"))
            .apply(to: Self.photo)
        #expect(out.extent == Self.photo.extent)
        #expect(Self.chainError("chain(\"vignette.chain\") inr=0.2")?.description.contains("did you mean 'inner'") == true)
    }

    @Test func buildingAChainTouchesNoPixels() throws {
        // The input's pixels cannot be decoded, so applying the chain must not try.
        let input = try Image(contentsOf: truncatedPhoto())
        let out = try FilterChain(contentsOf: Paths.root.appendingPathComponent("filters/soft-glow.chain")).apply(to: input)
        #expect(out.extent == input.extent)
        #expect(throws: LumenError.self) { _ = try RenderContext().render(out) }
    }

    @Test func errorsNameFileLineColumnAndText() {
        let cases: [(String, String)] = [
            ("gaussianBlur radius=4\ngausianBlur radius=2", "t.chain:2:1: unknown filter 'gausianBlur' (did you mean 'gaussianBlur'"),
            ("gaussianBlur radios=4", "t.chain:1:14: gaussianBlur has no key 'radios' (did you mean 'radius'"),
            ("gaussianBlur radius=\"big\"", "t.chain:1:14: gaussianBlur radius: expected scalar"),
            ("vignetteEffect intensity=3", "t.chain:1:16: vignetteEffect intensity: 3 is above the maximum 1"),
            ("sourceOver background=nothing", "t.chain:1:23: undefined name 'nothing'"),
            ("gaussianBlur radius=4 |", "t.chain:1:24: expected a filter name"),
            ("param x = 1 +", "t.chain:1:14: expected a value"),
            ("exposureAdjust ev=[1, 2", "t.chain:1:24: expected ']'"),
            ("exposureAdjust ev=1/0", "t.chain:1:20: division by zero"),
            ("a = gaussianBlur image=a", "t.chain:1:24: undefined name 'a'"),
            ("", "t.chain:1:1: the chain has no steps"),
            ("exposureAdjust ev=input.radius", "t.chain:1:24: images have .width"),
        ]
        for (text, expected) in cases {
            let message = Self.chainError(text)?.description ?? "no error"
            #expect(message.hasPrefix(expected), "\(text) → \(message)")
        }
        #expect(Self.chainError("exposureAdjust", input: nil)?.description.contains("needs an image") == true)
        #expect(Self.chainError("gaussianBlur radius=4 image=input", input: nil)?.description.contains("no input image") == true)
    }

    /// A mistake in a 20,000-character one-line chain is quoted around its column (60
    /// characters each side, marked with …), with the caret under it.
    @Test func aLongLineIsQuotedAroundTheMistake() throws {
        let steps = Array(repeating: "exposureAdjust ev=0.001", count: 400)
        let text = (steps + ["gausianBlur radius=2"] + steps).joined(separator: " | ")
        let message = try #require(Self.chainError(text)).description
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3 && lines[1].count < 140, "\(lines.map(\.count))")
        #expect(lines[1].hasPrefix("    …") && lines[1].hasSuffix("…"))
        let caret = try #require(lines[2].firstIndex(of: "^"))
        let under = lines[1].dropFirst(lines[2].distance(from: lines[2].startIndex, to: caret))
        #expect(under.hasPrefix("gausianBlur"), "\(under.prefix(20))")
        // A short line is quoted whole, without ellipses.
        let short = try #require(Self.chainError("gausianBlur radius=2")).description
        #expect(short.hasSuffix("    gausianBlur radius=2\n    ^"), "\(short)")
    }

    @Test func includeCyclesAreReported() throws {
        let directory = Paths.temporaryDirectory()
        try "chain(\"b.chain\")\n".write(to: directory.appendingPathComponent("a.chain"), atomically: true, encoding: .utf8)
        try "exposureAdjust ev=1 | chain(\"a.chain\")\n".write(to: directory.appendingPathComponent("b.chain"), atomically: true, encoding: .utf8)
        let chain = try FilterChain(contentsOf: directory.appendingPathComponent("a.chain"))
        #expect(throws: LumenError.self) { _ = try chain.apply(to: Self.photo) }
        do { _ = try chain.apply(to: Self.photo) } catch let error as LumenError {
            #expect(error.description.contains("b.chain:1:23") && error.description.contains("cycle: a.chain → b.chain → a.chain"))
        }
    }

    @Test func settingsOverrideParams() throws {
        let chain = try FilterChain("param ev = 0\nexposureAdjust ev=ev")
        let brighter = try chain.apply(to: Self.photo, settings: ["ev": "2*0.5"])
        #expect(brighter != Self.photo)
        #expect(throws: LumenError.self) { _ = try chain.apply(to: Self.photo, settings: ["evv": "1"]) }
    }

    @Test func valuesAndArithmetic() throws {
        let chain = try FilterChain("""
        param c = rgba(255, 128, 0, 0.5)
        a = constantColor color=c
        b = crop image=a rectangle=[input.width/4, 10 - 4*2, input.extent.width - 2*(3 + 1), (input.height)]
        crop rectangle=[0, 0, input.maxSide - input.minSide, 5] image=b
        """)
        let out = try chain.apply(to: Self.photo)
        #expect(out.extent == Rect(x: 160, y: 2, width: 80, height: 3))
    }

    /// 10,000 seeded mutations of the example chains: each parses and builds or fails
    /// with a located chain error; never a crash or a hang.
    @Test func randomMutationsNeverCrash() throws {
        var generator = SeededGenerator(seed: 2026)
        let texts = try Self.exampleNames.map { try String(contentsOf: Paths.root.appendingPathComponent("filters/\($0)"), encoding: .utf8) }
        let alphabet = Array("abcxyz019.,=|()[]#\"+-*/ \n") + ["input", "gaussianBlur", "chain(\"vignette.chain\")", "load(\"x\")", "1e999", "-", "[]"].flatMap { Array($0) }
        var failures = 0
        for trial in 0..<10_000 {
            var characters = Array(texts[trial % texts.count])
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                guard !characters.isEmpty else { break }
                let at = Int.random(in: 0..<characters.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: characters.remove(at: at)
                case 1: characters.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: characters[at] = alphabet.randomElement(using: &generator)!
                }
            }
            do {
                _ = try FilterChain(String(characters), file: "m.chain", directory: Paths.root.appendingPathComponent("filters")).apply(to: Self.photo)
            } catch let error as LumenError {
                guard case .chain = error else { Issue.record("not a chain error: \(error)"); return }
                failures += 1
            }
        }
        #expect(failures > 1000, "mutations should mostly fail (\(failures))")
    }
}

@Suite struct ChainLimitTests {
    /// Nesting, expression length and step count are bounded: a located error, never a
    /// stack overflow (these inputs crashed the process before the limits).
    @Test func absurdChainsAreLocatedErrors() throws {
        let cases = [
            ("exposureAdjust ev=" + String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000), "nest at most 256"),
            ("exposureAdjust ev=" + String(repeating: "-", count: 20000) + "1", "nest at most 256"),
            ("exposureAdjust ev=" + Array(repeating: "0.0001", count: 20000).joined(separator: "+"), "at most 1000 operators"),
            ("exposureAdjust ev=" + String(repeating: "[", count: 3000) + "1" + String(repeating: "]", count: 3000), "nest at most 256"),
            (Array(repeating: "exposureAdjust ev=0.001", count: 1500).joined(separator: "\n"), "at most 1000 steps"),
        ]
        for (text, message) in cases {
            #expect(throws: LumenError.self) { _ = try FilterChain(text, file: "deep.chain") }
            do { _ = try FilterChain(text, file: "deep.chain") } catch let error as LumenError {
                #expect(error.description.hasPrefix("deep.chain:") && error.description.contains(message), "\(error)")
            }
        }
        // Real chains stay well inside the limits.
        #expect(throws: Never.self) { _ = try FilterChain("exposureAdjust ev=((1 + 2) * -(3 - [4, 5].x)) / 10 | gaussianBlur radius=min(2, 3)") }
    }
}
