// From native_filters' NativeFilter.swift and NativeFilter+context.swift (corpus files of their own).
import LumenCoreImage
import CorpusStubs

class NativeFilter: NSObject {
    var currentContext: CIContext?
    var currentPresetName: String?
    var filters: [CIFilter] = []
    var originalVideo: URL?
    var originalImage: URL?
    var originalData: CIImage?
    init(name: String? = nil) {}
    var processedImage: CIImage? { nil }
    var exportVideoSession: AVAssetExportSession? { nil }
}

func colorCubeFilterFromLUT(image: UIImage, size: Int) -> NSData? { nil }

extension CIContext {
    class func selectImageContext(_ key: String) -> CIContext { fatalError("stub") }
    class func selectVideoContext(_ key: String) -> CIContext? { nil }
}

extension CIImage {
    func asData(context: CIContext, pathExtension: String? = nil, output: URL? = nil) -> Data? { nil }
}
