import Foundation
import Testing
@testable import Lumen

/// References for the filters of the second catalogue (coreimage-missing.md).
enum CatalogueReferences {
    typealias Check = () throws -> Void
    static let all: [String: Check] = barcodes.merging(reductions) { a, _ in a }

    /// Reductions against numpy over the same pixels (ReductionTests).
    static let reductions: [String: Check] = Dictionary(uniqueKeysWithValues: ReductionTests.names.map { name in
        (name, { try ReductionTests.check(name) })
    })

    // MARK: Barcodes — pixels against the zint command-line tool's own module dump

    static let barcodes: [String: Check] = [
        "qrCode": { try checkAgainstZint("qrCode", ["message": .string("Lumen QR"), "correctionLevel": .string("Q")],
                                         zint: ["-b", "58", "--secure=3"], message: "Lumen QR", rowHeight: 1, quietX: 1, quietY: 1) },
        "aztecCode": { try checkAgainstZint("aztecCode", ["message": .string("Lumen Aztec"), "correctionLevel": .number(36)],
                                            zint: ["-b", "92", "--secure=3"], message: "Lumen Aztec", rowHeight: 1, quietX: 1, quietY: 1) },
        "pdf417Barcode": { try checkAgainstZint("pdf417Barcode", ["message": .string("Lumen PDF417"), "correctionLevel": .number(3), "dataColumns": .number(4)],
                                                zint: ["-b", "55", "--secure=3", "--cols=4"], message: "Lumen PDF417", rowHeight: 3, quietX: 2, quietY: 2) },
        "code128Barcode": { try checkAgainstZint("code128Barcode", ["message": .string("Lumen-128"), "quietSpace": .number(3), "barcodeHeight": .number(5)],
                                                 zint: ["-b", "20"], message: "Lumen-128", rowHeight: 5, quietX: 3, quietY: 3) },
    ]

    /// The filter's pixels equal `zint --dump` (hex rows, most significant bit first),
    /// each row `rowHeight` pixels tall, inside white quiet zones.
    static func checkAgainstZint(_ filter: String, _ values: [String: FilterValue], zint arguments: [String], message: String,
                                 rowHeight: Int, quietX: Int, quietY: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zint", "--dump"] + arguments + ["-d", message]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let rows = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "zint (Debian package zint) is needed")
        let modules: [[Bool]] = rows.map { row in
            row.split(separator: " ").flatMap { byte -> [Bool] in
                // Two hex digits per 8 modules; a last single digit holds 4.
                let value = UInt8(byte, radix: 16) ?? 0, bits = byte.count * 4
                return (0..<bits).map { value & (1 << (bits - 1 - $0)) != 0 }
            }
        }
        let image = try FilterRegistry.descriptor(named: filter)!.apply(values)
        let bitmap = try render8(image)
        #expect(bitmap.height == modules.count * rowHeight + 2 * quietY)
        let width = bitmap.width - 2 * quietX
        for row in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let r = row - quietY, m = x - quietX
                let dark = r >= 0 && r < modules.count * rowHeight && m >= 0 && m < width && modules[r / rowHeight][m]
                let value = bitmap.pixel(x: x, row: row)
                guard value == (dark ? SIMD4<Float>(0, 0, 0, 255) : SIMD4<Float>(255, 255, 255, 255)) else {
                    Issue.record("\(filter): pixel (\(x), \(row)) is \(value), zint's module is \(dark ? "dark" : "light")")
                    return
                }
            }
        }
    }
}
