// HXPhotoPicker's own types that the corpus files use (declared elsewhere in HXPhotoPicker).
import LumenCoreImage
import CorpusStubs

public enum PhotoTools {}

public struct VideoEditorMusicInfo {
    public enum URLType { case network(url: URL), local(url: URL) }
    public init(audioURL: URLType, lrc: String) {}
}

extension String {
    var lrc: String? { nil }
}

public struct EditorChartlet {
    public init(url: URL?) {}
}

public struct PhotoEditorFilterParameterInfo {
    public var value: Float = 0
    public init(defaultValue: Float) {}
}

public struct PhotoEditorFilterInfo {
    public enum FilterName { case localized(String), custom(String) }
    public typealias FilterHandler = (CIImage, UIImage?, [PhotoEditorFilterParameterInfo], Bool) -> CIImage?
    public typealias VideoFilterHandler = (CIImage, [PhotoEditorFilterParameterInfo]) -> CIImage?
    public init(filterName: FilterName, parameters: [PhotoEditorFilterParameterInfo] = [],
                filterHandler: @escaping FilterHandler, videoFilterHandler: VideoFilterHandler? = nil) {}
}

// From HXPhotoPicker's EditorView+CIImage.swift (a corpus file of its own).
extension CIImage {
    func filter(name: String, parameters: [String: Any]) -> CIImage? { fatalError("stub") }
    func blurredImage(_ radius: Float) -> CIImage? { fatalError("stub") }
}

extension PhotoTools {
    static func getColor(red: Int, green: Int, blue: Int, alpha: Int = 255) -> CIColor { fatalError("stub") }
    static func getColorImage(red: Int, green: Int, blue: Int, alpha: Int = 255, rect: CGRect) -> CIImage { fatalError("stub") }
}
