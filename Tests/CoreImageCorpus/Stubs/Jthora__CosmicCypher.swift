// CosmicCypher's own types that CGImage+Extension.swift uses (declared in UIImage+Extension.swift).
import LumenCoreImage
import CorpusStubs

extension UIImage {
    public func resized(to newSize: CGSize, with resizeTechnique: CGImage.ResizeTechnique) throws -> UIImage { self }
}
