// HXPhotoPicker's own types that the corpus files use (declared elsewhere in HXPhotoPicker).
import LumenCoreImage
import CorpusStubs

struct EditorFilterEditFator {
    var brightness: Float = 0, contrast: Float = 1, saturation: Float = 1, exposure: Float = 0
    var highlights: Float = 0, shadows: Float = 0, vignette: Float = 0, sharpen: Float = 0, warmth: Float = 0
}

extension UIScreen {
    static var _width: CGFloat { 0 }
    static var _height: CGFloat { 0 }
}
