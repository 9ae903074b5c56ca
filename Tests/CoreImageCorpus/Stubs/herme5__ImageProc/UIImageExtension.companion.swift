// From ImageProc's UIImageExtension+Colorized.swift and ExcludeFilter.swift (corpus files of their own).
import LumenCoreImage
import CorpusStubs

internal extension UIImage {
    static func _colorized_ciColorMatrix(args: ColorizedArguments, cgImage: CGImage) -> CIFilter { fatalError("stub") }
    static func _colorized_mtlColorFilter(args: ColorizedArguments, cgImage: CGImage) -> CIFilter { fatalError("stub") }

    class ColorizedArguments: NSObject {
        var color: UIColor
        init(color: UIColor) { self.color = color }
    }
}

internal class ExcludeFilter: CIFilter {
    var inputFirstImage: CIImage?
    var inputSecondImage: CIImage?
}
