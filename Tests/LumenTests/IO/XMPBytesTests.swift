import Foundation
import Testing
@testable import Lumen

/// The XMP location remover (a linear scan of the bytes) against the regular expressions
/// it replaces, run by Foundation's NSRegularExpression (ICU): the same output for real
/// packets and for thousands of random ones built from the constructs it edits.
@Suite struct XMPBytesTests {
    static let patterns = [#"\s+exif:GPS[A-Za-z]*\s*=\s*"[^"]*""#, #"\s+exif:GPS[A-Za-z]*\s*=\s*'[^']*'"#,
                           #"<exif:GPS([A-Za-z]*)\b[^>]*/>"#, #"<exif:GPS([A-Za-z]*)\b[^>]*>.*?</exif:GPS\1>"#]

    static func reference(_ text: String) -> String {
        var text = text
        for pattern in patterns {
            let expression = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
            text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        return text
    }

    static func scanned(_ text: String) -> String {
        String(decoding: ImageMetadata.removingGPS(fromXMP: Data(text.utf8)), as: UTF8.self)
    }

    @Test func realPacketsLoseTheirLocationAsTheExpressionsSay() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
              exif:GPSLatitude="48,51.504N" exif:GPSLongitude='2,17.67E'
              exif:GPSVersionID = "2.3.0.0" exif:ExposureTime="1/60">
              <exif:GPSAltitude>35/1</exif:GPSAltitude>
              <exif:GPSTimeStamp rdf:parseType="Resource"/>
              <exif:GPSAreaInformation>
               <rdf:Alt><rdf:li xml:lang="x-default">Paris</rdf:li></rdf:Alt>
              </exif:GPSAreaInformation>
              <exif:GPS2>kept: not a name the expressions take</exif:GPS2>
              <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tour Eiffel — été</rdf:li></rdf:Alt></dc:title>
             </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let result = Self.scanned(packet)
        #expect(result == Self.reference(packet))
        #expect(!result.contains("GPSLatitude") && !result.contains("GPSAltitude") && result.contains("ExposureTime") && result.contains("été"))
        // A packet written by exiftool, as the command-line test makes it.
        let tagged = String(decoding: try ImageFile.metadata(at: Paths.testdata("formats/tagged.jpg")).xmp ?? Data(), as: UTF8.self)
        #expect(Self.scanned(tagged) == Self.reference(tagged))
    }

    @Test func randomPacketsGiveWhatTheExpressionsGive() {
        let pieces = ["<exif:GPS", "Latitude", "Alt", "2", "_", "é", ">", "/>", "/", "=", " = ", "\"", "'", " ", "\n", "\t",
                      "</exif:GPS", "</exif:GPSLatitude>", "</exif:GPSAlt>", " exif:GPS", "exif:GPSLatitude", "x", "<rdf:li>",
                      "<exif:GPSLatitude>", "<exif:GPSAlt a='1'>", "\"v\"", "'v'"]
        var generator = SeededGenerator(seed: 24)
        for round in 0..<4000 {
            let count = Int.random(in: 1...40, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let (ours, theirs) = (Self.scanned(text), Self.reference(text))
            #expect(ours == theirs, "round \(round): \(text.debugDescription)")
            if ours != theirs { return }
        }
    }

    /// Thousands of opening tags without their closing tag: one pass, and nothing taken
    /// that is not a whole property.
    @Test func openingTagsWithoutClosingOnesAreLeftAlone() {
        let text = String(repeating: "<exif:GPSLatitude a='1'> x ", count: 20_000) + "<exif:GPSAltitude/>"
        #expect(Self.scanned(text) == String(repeating: "<exif:GPSLatitude a='1'> x ", count: 20_000))
    }

    /// ICU's matches of `pattern`: each match's whole text and its first two groups.
    static func icuMatches(_ pattern: String, _ text: String) -> [[String]] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<min(match.numberOfRanges, 3)).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    @Test func directoriesAndSequencesAreTheExpressionsMatches() {
        let pieces = ["<", "Container", "c", ":Directory", ":Directory>", "</Container:Directory>", "</c:Directory>", "</", ">",
                      "<hdrgm:", "GainMapMax", ">", " ", "\n", "<rdf:Seq>", "</rdf:Seq>", "<rdf:li>1.5</rdf:li>", "é", "_", "2", "x"]
        var generator = SeededGenerator(seed: 7)
        for round in 0..<4000 {
            let count = Int.random(in: 1...30, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            let directories = XMPBytes.directories(bytes).map { [String(decoding: bytes[$0.range], as: UTF8.self), String(decoding: $0.prefix, as: UTF8.self)] }
            let sequences = XMPBytes.gainMapSequences(bytes).map { [String(decoding: $0.name, as: UTF8.self), String(decoding: $0.body, as: UTF8.self)] }
            let expectedDirectories = Self.icuMatches(#"<(\w+):Directory\b[\s\S]*?</\1:Directory>"#, text).map { [$0[0], $0[1]] }
            let expectedSequences = Self.icuMatches(#"<hdrgm:(\w+)>\s*<rdf:Seq>(.*?)</rdf:Seq>"#, text).map { [$0[1], $0[2]] }
            #expect(directories == expectedDirectories, "round \(round): \(text.debugDescription)")
            #expect(sequences == expectedSequences, "round \(round): \(text.debugDescription)")
            if directories != expectedDirectories || sequences != expectedSequences { return }
        }
    }
}
