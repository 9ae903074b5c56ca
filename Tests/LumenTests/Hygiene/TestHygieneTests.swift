import Foundation
import Testing

/// Every test asserts something that can fail: a test whose body neither expects, requires,
/// records an issue, nor calls a helper that does, passes whatever the code does. Scans the
/// test sources of every target (Swift Testing's `@Test` functions).
@Suite struct TestHygieneTests {
    struct Function { let name: String, body: String, file: String, isTest: Bool }

    /// Every function of the test targets, with its body (brace-matched).
    static let functions: [Function] = {
        let tests = Paths.root.appendingPathComponent("Tests")
        var found: [Function] = []
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("CoreImageCorpus") } ?? []
        let header = try! NSRegularExpression(
            pattern: #"(@Test\b(?:\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\s*)?(?:@\w+\s+)*(?:(?:static|private|fileprivate|mutating)\s+)*func\s+(\w+)"#)
        for file in files {
            guard let text = try? String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8) else { continue }
            let ns = text as NSString
            for match in header.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                var index = match.range.location + match.range.length
                // Skip the signature (parameters may contain braces only in default closures: rare) to the body.
                while index < ns.length, ns.character(at: index) != UInt16(UInt8(ascii: "{")) { index += 1 }
                var depth = 0, end = index
                while end < ns.length {
                    let c = ns.character(at: end)
                    if c == UInt16(UInt8(ascii: "{")) { depth += 1 }
                    if c == UInt16(UInt8(ascii: "}")) { depth -= 1; if depth == 0 { break } }
                    end += 1
                }
                guard index < ns.length, end > index else { continue }
                found.append(Function(name: ns.substring(with: match.range(at: 2)), body: ns.substring(with: NSRange(location: index, length: end - index + 1)),
                                      file: file, isTest: match.range(at: 1).location != NSNotFound))
            }
        }
        return found
    }()

    static let direct = try! NSRegularExpression(pattern: #"#expect|#require|Issue\.record|withKnownIssue|\bexpect\w*\("#)

    static func asserts(_ body: String) -> Bool {
        direct.firstMatch(in: body, range: NSRange(location: 0, length: (body as NSString).length)) != nil
    }

    /// Functions that assert, directly or through helpers that do (to a fixed point).
    static let asserting: Set<String> = {
        var names = Set(functions.filter { asserts($0.body) }.map(\.name))
        while true {
            let more = functions.filter { f in !names.contains(f.name) && names.contains { f.body.contains($0 + "(") } }.map(\.name)
            if more.isEmpty { return names }
            names.formUnion(more)
        }
    }()

    @Test func everyTestAssertsSomething() {
        let tests = Self.functions.filter(\.isTest)
        #expect(tests.count > 200, "found only \(tests.count) tests: the scan is broken")
        let silent = tests.filter { t in !Self.asserts(t.body) && !Self.asserting.contains { t.body.contains($0 + "(") } }
        #expect(silent.isEmpty, "tests without any expectation: \(silent.map { "\($0.file): \($0.name)" })")
    }

    @Test func theScanSeesASilentTest() {
        #expect(!Self.asserts("{ let x = 1 + 1; _ = x }"))
        #expect(Self.asserts("{ #expect(1 == 1) }") && Self.asserts("{ try #require(x) }"))
    }
}
