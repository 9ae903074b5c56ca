// dagronf/QRCode's own types that the corpus files use (declared elsewhere in QRCode).
import LumenCoreImage

public final class QRCode: NSObject {
    public enum ErrorCorrection: Int {
        case low, medium, quantize, high
        var ECLevel: String { "M" }
    }
}

public protocol QRCodeEngine {
    var name: String { get }
}

public enum QRCodeError: Error {
    case unableToConvertTextToRequestedEncoding
    case cannotGenerateImage
}

public final class BoolMatrix {
    public init(dimension: Int, flattened: [Bool]) {}
}
