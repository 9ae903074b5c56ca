import ArgumentParser
import Foundation
import Lumen

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Print size, format, depth, alpha, orientation and ICC of image files.")
    @Argument(help: "Image files.") var files: [String]
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        var failed = false
        var records: [[String: Any]] = []
        for file in files {
            do {
                let header = try ImageFile.header(at: URL(fileURLWithPath: file))
                let size = header.orientedSize
                let record: [String: Any] = [
                    "file": file, "format": header.format.rawValue, "width": size.width, "height": size.height,
                    "storedWidth": header.width, "storedHeight": header.height, "channels": header.channels,
                    "bitDepth": header.bitDepth, "alpha": header.hasAlpha, "orientation": header.orientation,
                    "icc": header.hasICCProfile, "iccDescription": header.iccDescription ?? "", "details": header.details,
                ]
                records.append(record)
                if !json {
                    print("\(file): \(header.format.rawValue.uppercased()) \(size.width)×\(size.height), \(header.channels) channel\(header.channels == 1 ? "" : "s"), \(header.bitDepth)-bit, \(header.hasAlpha ? "alpha" : "no alpha"), orientation \(header.orientation), \(header.hasICCProfile ? "ICC profile" + (header.iccDescription.map { " \"\($0)\"" } ?? "") : "no ICC profile") (\(header.details.joined(separator: ", ")))")
                }
            } catch let error as LumenError {
                printError("lumen: \(error)")
                failed = true
            }
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        if failed { throw ExitCode(2) }
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert", abstract: "Convert an image between JPEG, PNG and TIFF.")
    @Argument(help: "Input image.") var input: String
    @Option(name: .shortAndLong, help: "Output file (.jpg, .png, .tif).") var output: String
    @Option(help: "JPEG quality 1–100 (default 90).") var quality: Double?
    @Option(help: "Bits per channel for PNG/TIFF: 8 or 16 (default: the input's).") var depth: Int?
    @OptionGroup var renderOptions: RenderOptions

    func run() throws {
        try reportingErrors {
            let url = URL(fileURLWithPath: input)
            let image = try Image(contentsOf: url, options: renderOptions.loadOptions)
            let sourceDepth = image.fileHeader?.decodedDepth ?? 8
            let format = try outputFormat(for: output, quality: quality, depth: depth ?? sourceDepth)
            let context = try renderOptions.context()
            try context.write(image, to: URL(fileURLWithPath: output), format: format)
            renderOptions.report(context)
        }
    }
}
