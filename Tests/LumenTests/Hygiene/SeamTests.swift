import Foundation
import Testing

/// The seams the README's "How a pixel gets made" describes, checked on the sources: a
/// source is known to the engine only through `RowSource`, and kernels get no handle on
/// the render they run in.
@Suite struct SeamTests {
    /// Swift files under `Sources/Lumen/<folder>` (all folders when nil), path → text.
    static func sources(under folder: String? = nil) throws -> [String: String] {
        let root = Paths.root.appendingPathComponent("Sources/Lumen")
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.path.dropFirst(root.path.count + 1))
            if let folder, !path.hasPrefix(folder + "/") { continue }
            files[path] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    @Test func onlyTheSourceFolderNamesTheSourceKernel() throws {
        let all = try Self.sources()
        #expect(all.count > 100)
        let outside = all.filter { !$0.key.hasPrefix("Source/") && $0.value.contains("SourceKernel") }.keys.sorted()
        #expect(outside == ["Render/RowSource.swift"], "only RowSource's doc comment points at it: \(outside)")
        #expect(!all["Render/RowSource.swift", default: ""].split(separator: "\n")
            .contains { $0.contains("SourceKernel") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///") })
        #expect(try Self.sources(under: "Source").values.contains { $0.contains("struct SourceKernel") })
    }

    @Test func kernelsGetNoHandleOnTheRenderer() throws {
        let sampler = try Self.sources(under: "Kernel")["Kernel/Sampler.swift"] ?? ""
        let destination = sampler.components(separatedBy: "public struct Destination").dropFirst().first ?? ""
        #expect(!destination.isEmpty)
        #expect(!destination.prefix(400).contains("Renderer") && !destination.prefix(400).contains("ImageNode"))
    }
}
