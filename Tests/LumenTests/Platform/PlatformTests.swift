import Foundation
import Testing
import LumenPlatform

/// LumenPlatform's replacements for what only the whole of Foundation has, checked against
/// Foundation itself (which this test target links): the same text, values and listings.
@Suite struct PlatformTests {
    @Test func printfFormatsAsFoundationDoes() {
        let values: [Double] = [0, -0.0, 1, 0.05, 0.15, 2.5, 1234.5678, 1e-7, 6.02e23, -3.999, .infinity, -.infinity, .nan, 1e308]
        for format in ["%.1f", "%.0f", "%.2f", "%.3g", "%g", "%.1f GB", "f/%g", "%g mm"] {
            for value in values {
                #expect(String(printf: format, value) == String(format: format, value), "\(format) \(value)")
            }
        }
        for value in [0, 7, 42, 123_456, -5] as [Int32] {
            for format in ["%d", "%02d", "%05d", "frame-%03d.png"] {
                #expect(String(printf: format, value) == String(format: format, value), "\(format) \(value)")
            }
        }
        // Longer than the first buffer: grown and written whole.
        #expect(String(printf: "%0200d", Int32(1)) == String(repeating: "0", count: 199) + "1")
        #expect(String(printf: "%g s", Float(0.25)) == "0.25 s")  // a Float goes as a double, as C promotes it
    }

    @Test func trimmingAndPaddingMatchFoundation() {
        let samples = ["", " ", "\t a b \t", "\n x \n", "\r\n y\u{00A0}", "\u{3000}wide\u{2003}", "no-space", " \u{2028}line\u{2029} ", "é ", "  \n\t  "]
        for text in samples {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            // NSString pads by UTF-16 units; columns are padded by characters, which differ
            // only where a character takes several units ("\r\n", "e" + a combining accent).
            for width in [0, 3, 12] where text.utf16.count == text.count {
                #expect(text.padded(to: width) == text.padding(toLength: width, withPad: " ", startingAt: 0), "\(text.debugDescription) \(width)")
            }
        }
        #expect("e\u{0301}x".padded(to: 3) == "e\u{0301}x " && "\r\nab".padded(to: 2) == "\r\na")
    }

    @Test func filenameExtensionsMatchNSString() {
        for path in ["a.png", "a.tar.gz", "noext", ".hidden", "dir.d/file", "dir.d/file.JPG", "/abs/x.webp", "a.", "a..b", "trailing/", "x/.cfg", ""] {
            #expect(path.filenameExtension == (path as NSString).pathExtension, "\(path)")
        }
    }

    @Test func jsonReadsAndWritesAsJSONSerialization() throws {
        let text = #"{"input": "a/b.jpg", "n": 3, "x": 0.6, "big": 1e20, "neg": -12, "t": true, "f": false, "z": null, "list": [1, "two", [3]], "o": {"k": "v", "ü": "é\n\"q\""}}"#
        let value = try #require(JSONValue.parse(Data(text.utf8)))
        let reference = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let object = try #require(value.object)
        #expect(Set(object.keys) == Set(reference.keys))
        #expect(object["input"]?.string == reference["input"] as? String)
        #expect(object["n"]?.numberText == (reference["n"] as! NSNumber).stringValue)
        #expect(object["x"]?.numberText == (reference["x"] as! NSNumber).stringValue)
        #expect(object["neg"]?.numberText == (reference["neg"] as! NSNumber).stringValue)
        #expect(object["z"] == .null && object["t"] == .bool(true) && object["f"] == .bool(false))
        #expect(JSONValue.parse(Data("{not json".utf8)) == nil && JSONValue.parse(Data()) == nil)
        // Written pretty with sorted keys, the same bytes JSONSerialization writes.
        let built: [String: Any] = ["name": "gaussianBlur", "radius": 10, "scale": 0.5, "on": true,
                                    "list": ["a", 1, 2.25], "nested": ["b": "x/y", "a": [] as [Any]], "none": JSONValue.null]
        var plain = built
        plain["none"] = NSNull()
        let ours = String(decoding: try #require(JSONValue(built)).prettyPrinted(), as: UTF8.self)
        let theirs = String(decoding: try JSONSerialization.data(withJSONObject: plain, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        #expect(ours == theirs)
        #expect(JSONValue(["date": Date()] as [String: Any]) == nil)  // not JSON: refused, not guessed
    }

    @Test func filesUnderListsWhatTheEnumeratorLists() throws {
        let root = Paths.temporaryDirectory()
        for path in ["a.jpg", "sub/b.png", "sub/deeper/c.tif", ".hidden/d.jpg", "sub/.e.png", "empty/"] {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("x".utf8).write(to: url)
            }
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: root.appendingPathComponent("sub").path)
        let reference = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
        #expect(filesUnder(root.path).sorted() == reference)
        #expect(isFolder(root.path) == true && isFolder(root.appendingPathComponent("a.jpg").path) == false)
        #expect(isFolder(root.appendingPathComponent("link").path) == true && isFolder(root.appendingPathComponent("nothing").path) == nil)
        #expect(fileSize(root.appendingPathComponent("a.jpg").path) == 1 && fileSize(root.appendingPathComponent("nothing").path) == nil)
    }

    @Test func posixCausesAreFoundUnderFoundationsErrors() throws {
        let missing = Paths.temporaryDirectory().appendingPathComponent("nothing/here.txt")
        do {
            _ = try Data(contentsOf: missing)
            Issue.record("read a file that is not there")
        } catch {
            #expect(posixCode(of: error) == ENOENT, "\(error)")
        }
        #expect(posixCode(of: POSIXError(.ENOSPC)) == ENOSPC)
        #expect(posixCode(of: CocoaError(.fileWriteUnknown)) == nil)
    }

    @Test func aConditionWakesItsWaiterAndADetachedThreadRuns() {
        let condition = Condition()
        nonisolated(unsafe) var ready = false
        condition.lock()
        detachThread {
            sleepThread(seconds: 0.01)
            condition.lock()
            ready = true
            condition.broadcast()
            condition.unlock()
        }
        while !ready { condition.wait() }
        condition.unlock()
        #expect(ready)
        // The lock excludes: 4 threads × 10,000 increments, none lost.
        let lock = Lock(), done = Condition()
        nonisolated(unsafe) var count = 0, finished = 0
        for _ in 0..<4 {
            detachThread {
                for _ in 0..<10_000 { lock.lock(); count += 1; lock.unlock() }
                done.lock(); finished += 1; done.broadcast(); done.unlock()
            }
        }
        done.lock()
        while finished < 4 { done.wait() }
        done.unlock()
        #expect(count == 40_000)
    }
}
