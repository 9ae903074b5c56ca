import Foundation
import LumenCoreImage
import Testing

/// Foundation API that Core Image client code uses and Foundation on Linux lacks.
struct FoundationGapsTests {
    /// `String(localized:)` looks the key up in the bundle's strings table, and falls
    /// back to the key, as Apple's Foundation does (ml-explore/mlx-swift-examples' Image.swift).
    @Test func localizedStringsComeFromTheBundle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-strings-\(UUID().uuidString).bundle")
        let language = folder.appendingPathComponent("Resources/en.lproj")
        try FileManager.default.createDirectory(at: language, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "\"Unable to open the image file.\" = \"Impossible d’ouvrir l’image.\";\n"
            .write(to: language.appendingPathComponent("Localizable.strings"), atomically: true, encoding: .utf8)
        let bundle = try #require(Bundle(path: folder.path))
        #expect(String(localized: "Unable to open the image file.", bundle: bundle) == "Impossible d’ouvrir l’image.")
        #expect(String(localized: "Not in the table.", bundle: bundle) == "Not in the table.")
        #expect(String(localized: "Failed to save the image to the specified location.") == "Failed to save the image to the specified location.")
    }
}
