import Foundation
import Testing

/// The child-process runner every command-line and reference-tool test goes through: it
/// must not hang on a child's output, and must end a child that hangs, with what it started.
@Suite struct TestSupportTests {
    @Test func outputsLargerThanAPipeDoNotHang() throws {
        // 200 KB to standard error before a byte to standard output: reading one pipe to its
        // end before the other would wait for ever here.
        let finished = try runToEnd("/bin/sh", ["-c", "head -c 200000 /dev/zero >&2; echo done"], limit: 60)
        #expect(finished.status == 0 && finished.stdout == "done\n" && finished.stderr.utf8.count == 200_000)
    }

    @Test func aChildThatOutlivesItsLimitIsKilledWithWhatItStarted() throws {
        let marker = Paths.temporaryDirectory().appendingPathComponent("grandchild.pid")
        let started = Date()
        #expect(throws: TimedOut.self) {
            // A background grandchild holding standard output open, as a pool's worker does.
            try runToEnd("/bin/sh", ["-c", "sleep 300 & echo $! > '\(marker.path)'; sleep 300"], limit: 1)
        }
        #expect(Date().timeIntervalSince(started) < 30)
        let pid = try #require(Int32(String(decoding: try Data(contentsOf: marker), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(200_000)
        // Gone, or a zombie its new parent has not reaped yet ("… (sleep) Z …").
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
        #expect(state == nil || state == "Z", "the grandchild \(pid) is still running (state \(String(describing: state)))")
    }

    /// A test's open pipe (Foundation's are not close-on-exec) must not reach the child, or
    /// a test reading it to its end would wait for this child as well.
    @Test func theChildInheritsOnlyItsThreeOutputs() throws {
        let pipe = Pipe()
        defer { try? pipe.fileHandleForReading.close(); try? pipe.fileHandleForWriting.close() }
        let listed = try runToEnd("/bin/sh", ["-c", "ls /proc/$$/fd"], limit: 60).stdout.split(separator: "\n")
        #expect(listed == ["0", "1", "2"], "descriptors open in the child: \(listed), the test's pipe is \(pipe.fileHandleForWriting.fileDescriptor)")
    }

    @Test func standardInputIsEmpty() throws {
        #expect(try runToEnd("/bin/cat", [], limit: 60).stdout == "")
    }
}
