// From aschuch/QRCode's CIImageExtension.swift (a corpus file of its own).
import LumenCoreImage
import CorpusStubs

internal typealias Scale = (dx: CGFloat, dy: CGFloat)

internal extension CIImage {
    func nonInterpolatedImage(withScale scale: Scale = Scale(dx: 1, dy: 1)) -> UIImage? { fatalError("stub") }
}
