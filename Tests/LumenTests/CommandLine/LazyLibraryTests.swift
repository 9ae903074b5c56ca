import Foundation
import Testing

/// libtiff and libwebp (with libwebpdemux and libwebpmux) are opened when a TIFF or a WebP
/// is first read or written, not when `lumen` starts (`CLazyLibrary`): a process that
/// never touches those formats does not load them, and a machine without them gets an
/// error naming the library instead of a process that cannot start.
@Suite struct LazyLibraryTests {
    /// The shared objects the dynamic loader brought into a `lumen` run (`LD_DEBUG=files`
    /// lists each as it is loaded, linked or opened).
    func loadedLibraries(_ arguments: [String]) throws -> (CommandLineTests.Result, Set<String>) {
        let result = try CommandLineTests.lumen(arguments, environment: ["LD_DEBUG": "files"])
        // "     12345:	file=libtiff.so.6 [0];  needed by …" or "…;  dynamically loaded by …"
        let names = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map { String($0.split(separator: "/").last ?? $0) }
        }
        return (result, Set(names))
    }

    /// The four, and what libtiff alone brings (its compressions).
    static let lazy = ["libtiff.so.6", "libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3",
                       "libzstd.so.1", "liblzma.so.5", "libLerc.so.4", "libjbig.so.0", "libdeflate.so.0"]

    @Test func aProcessThatReadsNeitherFormatLoadsNeitherLibrary() throws {
        let directory = Paths.temporaryDirectory()
        let (png, loaded) = try loadedLibraries(["convert", "testdata/codecs/rgb8.png", "-o", directory.appendingPathComponent("a.png").path])
        #expect(png.status == 0, "\(png.stderr.suffix(500))")
        #expect(loaded.contains("libpng16.so.16"), "the log lists what was loaded: \(loaded.sorted())")
        #expect(loaded.isDisjoint(with: Self.lazy), "\(loaded.sorted())")

        let (tiff, withTIFF) = try loadedLibraries(["convert", "testdata/codecs/rgb8.png", "-o", directory.appendingPathComponent("a.tiff").path])
        #expect(tiff.status == 0)
        // Debian's libtiff links libwebp (for WebP-compressed TIFFs) and brings it along.
        #expect(withTIFF.isSuperset(of: ["libtiff.so.6", "libzstd.so.1", "libLerc.so.4"]) && !withTIFF.contains("libwebpmux.so.3"),
                "\(withTIFF.sorted())")

        let (webp, withWebP) = try loadedLibraries(["convert", "testdata/codecs/rgb8.png", "-o", directory.appendingPathComponent("a.webp").path])
        #expect(webp.status == 0)
        #expect(withWebP.isSuperset(of: ["libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3"]) && !withWebP.contains("libtiff.so.6"),
                "\(withWebP.sorted())")
        // Written through the forwarders, the files read back as what was written.
        let back = try CommandLineTests.lumen(["info", directory.appendingPathComponent("a.tiff").path, directory.appendingPathComponent("a.webp").path])
        #expect(back.status == 0 && back.stdout.contains("TIFF") && back.stdout.contains("WEBP"), "\(back.stdout) \(back.stderr)")
    }

    /// With the libraries made unreadable (an empty file mounted over each, in a private mount
    /// namespace, gone with it: root only, as CI runs), a WebP or TIFF write and a TIFF read
    /// fail with an error that names the file and the library (not "corrupt"), exit 2 and no
    /// output; the rest of `lumen` still works.
    @Test(.enabled(if: getuid() == 0, "a private mount namespace needs root"))
    func aMissingLibraryIsAnErrorNamingIt() throws {
        let directory = Paths.temporaryDirectory()
        func installed(_ name: String) throws -> String {
            let path = try #require(["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
                .map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }, "\(name)")
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        let webp = directory.appendingPathComponent("a.webp").path, tiff = directory.appendingPathComponent("a.tif").path
        let png = directory.appendingPathComponent("a.png").path, lumen = CommandLineTests.binary.path
        let script = """
            mount --bind /dev/null '\(try installed("libwebp.so.7"))' || exit 97
            mount --bind /dev/null '\(try installed("libtiff.so.6"))' || exit 97
            '\(lumen)' convert testdata/codecs/rgb8.png -o '\(webp)'; echo "webp write exit $?" >&2
            '\(lumen)' convert testdata/codecs/rgb8.png -o '\(tiff)'; echo "tiff write exit $?" >&2
            '\(lumen)' convert testdata/codecs/gray.tif -o '\(png)'; echo "tiff read exit $?" >&2
            '\(lumen)' convert testdata/codecs/rgb8.png -o '\(png)'; echo "png exit $?" >&2
            """
        let result = try CommandLineTests.lumen(["-m", "sh", "-c", script], via: "/usr/bin/unshare")
        #expect(result.status == 0, "unshare -m and mount --bind: \(result.stderr)")
        for run in ["webp write exit 2", "tiff write exit 2", "tiff read exit 2", "png exit 0"] {
            #expect(result.stderr.contains(run), "\(run): \(result.stderr)")
        }
        #expect(result.stderr.contains(webp) && result.stderr.contains(tiff), "\(result.stderr)")
        #expect(result.stderr.contains("libwebp.so.7 cannot be loaded") && result.stderr.contains("libtiff.so.6 cannot be loaded"),
                "\(result.stderr)")
        #expect(result.stderr.contains("testdata/codecs/gray.tif") && !result.stderr.contains("corrupt"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webp) && !FileManager.default.fileExists(atPath: tiff))
        #expect(FileManager.default.fileExists(atPath: png))
    }
}
