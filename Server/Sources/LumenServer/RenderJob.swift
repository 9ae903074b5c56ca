import Foundation
import Lumen

/// One render: load, recipe, resize, encode. Runs on a worker thread.
struct RenderJob: Sendable {
    /// A file under a root, or bytes uploaded or fetched (held from the bodies' budget until the job is gone).
    enum Source: Sendable { case file(URL), bytes(Data, BodyBudget.Hold) }
    let processing: ProcessingRequest
    let source: Source
    let format: ImageFileFormat
    let quality: Int
    let recipesFolder: String?
    let roots: [String]
    let maxOutputPixels: Int

    func run(_ context: RenderContext) throws -> Data {
        var image: Image
        switch source {
        case let .file(url): image = try Image(contentsOf: url)
        case let .bytes(data, _): image = try Image(data: data, name: "the uploaded image")
        }
        let input = image
        let apply = FilterChain.ApplyOptions(extent: .input)
        if let recipe = processing.recipe, let recipesFolder {
            let url = URL(fileURLWithPath: recipesFolder).appendingPathComponent(recipe + ".chain")
            let chain = try FilterChain(contentsOf: url, fileAccess: .roots(roots.map { URL(fileURLWithPath: $0) }))
            image = try chain.apply(to: image, settings: processing.parameters, options: apply)
        } else if let text = processing.inlineChain {
            let chain = try FilterChain(text, file: "chain:", fileAccess: .none)
            image = try chain.apply(to: image, settings: processing.parameters, options: apply)
        }
        if image.extent.isInfinite { image = image.cropped(to: input.extent) }
        if processing.width > 0 || processing.height > 0 {
            let crop: Thumbnail.Crop = processing.fit == .fill ? (processing.attention ? .attention : .centre) : .none
            var thumbnail = Thumbnail(width: processing.width > 0 ? processing.width : 1 << 20,
                                      height: processing.height > 0 ? processing.height : 1 << 20,
                                      crop: crop, size: processing.enlarge ? .both : .down)
            thumbnail.focus = processing.focus
            image = try thumbnail.apply(to: image, context: context)
        }
        let area = image.extent.width * image.extent.height
        guard area <= Double(maxOutputPixels) else {
            throw ServiceError.request(status: 422, message: "the output would be \(Int(image.extent.width))×\(Int(image.extent.height)), more than \(maxOutputPixels) pixels")
        }
        var output = OutputFormat(fileFormat: format, quality: Double(quality) / 100)
        output.metadata = .iccOnly
        return try context.encode(image, format: output)
    }
}
