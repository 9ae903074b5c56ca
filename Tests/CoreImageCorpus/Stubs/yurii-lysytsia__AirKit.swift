// AirKit's own helpers that the corpus files use (declared elsewhere in AirKit).
import LumenCoreImage
import CorpusStubs

extension CGSize {
    func aspectFitted(to size: CGSize) -> CGSize { fatalError("stub") }
    func aspectFilled(to size: CGSize) -> CGSize { fatalError("stub") }
}

extension Comparable {
    func clamped(lowerBound: Self, upperBound: Self) -> Self { fatalError("stub") }
}
