// WeScan's own types that the corpus files use (declared elsewhere in WeScan).
import LumenCoreImage

struct Quadrilateral {
    init(rectangleFeature: CIRectangleFeature) {}
}

extension Array where Element == Quadrilateral {
    func biggest() -> Quadrilateral? { first }
}
