// ZLPhotoBrowser's own helpers that the corpus files use (declared elsewhere in ZLPhotoBrowser).
import LumenCoreImage
import CorpusStubs

public struct ZLPhotoBrowserWrapper<Base> {
    public let base: Base
}

extension UIImage {
    public var zl: ZLPhotoBrowserWrapper<UIImage> { ZLPhotoBrowserWrapper(base: self) }
}

extension CIImage {
    public var zl: ZLPhotoBrowserWrapper<CIImage> { ZLPhotoBrowserWrapper(base: self) }
}

extension ZLPhotoBrowserWrapper where Base: UIImage {
    func toCIImage() -> CIImage? { fatalError("stub") }
}

extension ZLPhotoBrowserWrapper where Base: CIImage {
    func toUIImage() -> UIImage? { fatalError("stub") }
}
