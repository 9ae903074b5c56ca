import Foundation
import Testing
@testable import Lumen

/// Paths into the repository from the tests.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func testdata(_ name: String) -> URL { root.appendingPathComponent("testdata").appendingPathComponent(name) }
    static func codec(_ name: String) -> URL { testdata("codecs/\(name)") }

    /// This test process's scratch folder, which holds every `temporaryDirectory()` and is
    /// removed when the process exits (a full run makes about a thousand; left behind, they
    /// filled /tmp run after run).
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Paths.scratch) }
        return url
    }()

    /// A fresh temporary directory.
    static func temporaryDirectory() -> URL {
        let url = scratch.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A copy of the bundled photo cut off halfway through its scan (its header ends at
/// 44 KB): its header reads, its pixels do not.
/// An image built on it proves that building decoded nothing (a decode would throw).
func truncatedPhoto() throws -> URL {
    let data = try Data(contentsOf: Paths.testdata("photo.jpg"))
    let url = Paths.temporaryDirectory().appendingPathComponent("truncated.jpg")
    try data.prefix(48_000).write(to: url)
    return url
}

/// Reference pixels stored as PAM (P7), as written by scripts/make-testdata.py.
struct PAM {
    let width: Int
    let height: Int
    let depth: Int
    let maxValue: Int
    let samples: [Int]

    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        let end = data.range(of: Data("ENDHDR\n".utf8))!
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var fields: [String: Int] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
        }
        width = fields["WIDTH"]!
        height = fields["HEIGHT"]!
        depth = fields["DEPTH"]!
        maxValue = fields["MAXVAL"]!
        let body = [UInt8](data[end.upperBound...])
        if maxValue > 255 {
            samples = stride(from: 0, to: body.count, by: 2).map { Int(body[$0]) << 8 | Int(body[$0 + 1]) }
        } else {
            samples = body.map(Int.init)
        }
    }

    func sample(x: Int, row: Int, channel: Int) -> Int { samples[(row * width + x) * depth + channel] }
}

/// Renders an image with the default context into 8-bit RGBA.
func render8(_ image: Image, in rect: Rect? = nil, context: RenderContext = RenderContext()) throws -> Bitmap {
    try context.render(image, in: rect, format: .rgba8)
}

/// Largest absolute difference between a bitmap and a reference.
func maxDifference(_ bitmap: Bitmap, _ reference: PAM, channels: Int = 4) -> Int {
    var worst = 0
    for row in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            let p = bitmap.pixel(x: x, row: row)
            for c in 0..<channels { worst = max(worst, abs(Int(p[c]) - reference.sample(x: x, row: row, channel: c))) }
        }
    }
    return worst
}

/// Renders `image` whole and in every schedule the issue names (1×1, 7×13, 64×64 and
/// default tiles; 1 and N threads) and requires identical float pixels.
func expectTileInvariant(_ image: Image, in rect: Rect? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let reference = try RenderContext(.init(threads: 1, tileWidth: 4096, tileHeight: 4096)).render(image, in: rect, format: .rgbaFloat)
    let schedules: [(Int, Int, Int)] = [(1, 1, 2), (7, 13, 1), (7, 13, 3), (64, 64, 2), (256, 128, 4)]
    for (w, h, threads) in schedules {
        let bitmap = try RenderContext(.init(threads: threads, tileWidth: w, tileHeight: h)).render(image, in: rect, format: .rgbaFloat)
        #expect(bitmap == reference, "tiles \(w)×\(h), \(threads) threads differ", sourceLocation: sourceLocation)
    }
}

/// A small synthetic photo-like image: a gradient with a checker overlay (infinite
/// generators cropped to `size`).
func syntheticImage(width: Int = 37, height: Int = 29) -> Image {
    let gradient = try! Filter.descriptor(named: "linearGradient")!.apply([
        "point0": .vector([0, 0]), "point1": .vector([Double(width), Double(height)]),
        "color0": .color(Color(red: 0.9, green: 0.2, blue: 0.1)), "color1": .color(Color(red: 0.1, green: 0.3, blue: 0.8)),
    ])
    let checker = try! Filter.descriptor(named: "checkerboard")!.apply([
        "center": .vector([3, 5]), "width": .number(6), "color0": .color(Color(red: 1, green: 1, blue: 1, alpha: 0.3)),
        "color1": .color(.clear),
    ])
    return checker.composited(over: gradient).cropped(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
}

/// How a child process ended, and what it wrote.
struct Finished { var status: Int32; var stdout: String; var stderr: String }

/// A child process that did not end within its limit (it was killed, with everything it
/// started).
struct TimedOut: Error, CustomStringConvertible {
    var command: [String]
    var seconds: Int
    var description: String { "\(command.prefix(3).joined(separator: " ")) did not finish within \(seconds) s and was killed" }
}

/// Runs `executable` with `arguments` to its end. Its standard input is /dev/null and its
/// outputs go to files, not pipes, so a child that writes more than a pipe holds to one
/// output while the test reads the other, or a grandchild that keeps an output open (a
/// worker of a Python pool), cannot hang the test. It runs under timeout(1), in a process
/// group of its own: after `limit` seconds it and everything it started are killed and
/// the test fails naming it, instead of CI waiting until its own limit with nothing said.
///
/// Spawned here rather than by Foundation's `Process`, which passes the calling thread's
/// signal mask on: a test runs on a Dispatch thread that blocks SIGALRM and SIGTERM, so
/// timeout(1) would never wake and its command would ignore being told to stop. The child
/// starts with no signal blocked and every handler at its default, as from a shell.
func runToEnd(_ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
              limit: Int = 600) throws -> Finished {
    let outputs = Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: outputs) }
    let stdout = outputs.appendingPathComponent("stdout"), stderr = outputs.appendingPathComponent("stderr")

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Nothing else is inherited: Foundation's pipes are not close-on-exec, and a test
    // reading one to its end would otherwise wait for this child too.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), standard = sigset_t()
    sigemptyset(&none)
    sigemptyset(&standard)
    for signal: Int32 in 1..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&standard, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &standard)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    // env -C changes directory (Glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift).
    let command = ["/usr/bin/timeout", "--kill-after=5", "\(limit)"] + (directory.map { ["/usr/bin/env", "-C", $0.path] } ?? [])
        + [executable] + arguments
    let variables = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }.map { "\($0.key)=\($0.value)" }
    let argv = command.map { strdup($0) } + [nil], envp = variables.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let started = Date()
    let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw LumenError.unrenderable(reason: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
    var wait: Int32 = 0, waited: pid_t
    repeat { waited = waitpid(pid, &wait, 0) } while waited == -1 && errno == EINTR
    guard waited == pid else { throw LumenError.unrenderable(reason: "lost \(executable)'s exit: \(String(cString: strerror(errno)))") }
    // As Process reports it: the exit status, or the number of the signal that ended it.
    let signal = wait & 0x7f, status = signal == 0 ? (wait >> 8) & 0xff : signal
    // timeout(1) exits 124 when it stopped the command, 137 (or dies of SIGKILL) when it had to kill it.
    if [124, 137, SIGKILL].contains(status) && Date().timeIntervalSince(started) >= Double(limit) {
        throw TimedOut(command: [executable] + arguments, seconds: limit)
    }
    return Finished(status: status, stdout: String(decoding: (try? Data(contentsOf: stdout)) ?? Data(), as: UTF8.self),
                    stderr: String(decoding: (try? Data(contentsOf: stderr)) ?? Data(), as: UTF8.self))
}

/// Runs a reference tool (`python3 scripts/…`, a command-line decoder) and returns its
/// standard output; throws, naming the tool, `hint` and the end of what it printed to
/// standard error, when it fails.
func runReferenceTool(_ arguments: [String], hint: String, limit: Int = 600) throws -> String {
    let finished = try runToEnd("/usr/bin/env", arguments, limit: limit)
    guard finished.status == 0 else {
        throw LumenError.unrenderable(reason: "\(arguments.prefix(2).joined(separator: " ")) failed (\(hint)): \(finished.stderr.suffix(600))")
    }
    return finished.stdout
}

/// A script of scripts/ run with python3.
func runScript(_ name: String, _ arguments: [String], hint: String) throws -> String {
    try runReferenceTool(["python3", Paths.root.appendingPathComponent("scripts/\(name)").path] + arguments, hint: hint)
}

/// The chunk types of a PNG file in order ("IHDR", "sRGB", "iCCP"…), read straight from its bytes.
func pngChunkTypes(_ url: URL) throws -> [String] {
    let data = try Data(contentsOf: url)
    var types: [String] = [], offset = 8
    while offset + 8 <= data.count {
        let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        types.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
        offset += 12 + length
    }
    return types
}
