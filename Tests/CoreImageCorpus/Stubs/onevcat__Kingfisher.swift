// Kingfisher's own types that Filter.swift uses (declared elsewhere in Kingfisher).
import LumenCoreImage
import CorpusStubs

public typealias KFCrossPlatformImage = UIImage
public typealias KFCrossPlatformColor = UIColor

public enum ImageProcessItem {
    case image(KFCrossPlatformImage)
    case data(Data)
}

public struct KingfisherParsedOptionsInfo {}

public protocol ImageProcessor {
    var identifier: String { get }
    func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?
}

public struct DefaultImageProcessor: ImageProcessor {
    public static let `default` = DefaultImageProcessor()
    public var identifier: String { "" }
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? { nil }
}

infix operator |>: AdditionPrecedence
public func |> (left: ImageProcessor, right: ImageProcessor) -> ImageProcessor { left }

public struct KingfisherWrapper<Base> {
    public let base: Base
}

extension KFCrossPlatformImage {
    public var kf: KingfisherWrapper<KFCrossPlatformImage> { KingfisherWrapper(base: self) }
}

extension KingfisherWrapper where Base: KFCrossPlatformImage {
    var cgImage: CGImage? { base.cgImage }
    var size: CGSize { base.size }
}
