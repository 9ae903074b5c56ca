import Foundation
import Lumen

/// Core Image's feature detector (faces, rectangles, QR codes, text). LumenCoreImage has
/// no detector or barcode decoder: `CIDetector(ofType:context:options:)` returns nil for
/// every type, as Core Image does for a type it does not support, and says so on standard
/// error. Code written for Core Image already handles that nil (the initialiser is
/// failable), so it compiles and runs, finding nothing.
open class CIDetector: NSObject, @unchecked Sendable {
    /// Nil, with the reason on standard error: no detector of any type exists on Linux.
    public init?(ofType type: String, context: CIContext?, options: [String: Any]? = nil) {
        CIFilter.report("CIDetector(ofType: \(type)): LumenCoreImage has no face, rectangle, QR code or text detector; returning nil as Core Image does for an unsupported type")
        return nil
    }

    /// The features found in `image` (never called: no detector can be made).
    open func features(in image: CIImage) -> [CIFeature] { [] }
    /// The features found in `image` with per-image options (never called: no detector can be made).
    open func features(in image: CIImage, options: [String: Any]?) -> [CIFeature] { [] }
}

/// A detector type: faces.
public let CIDetectorTypeFace = "CIDetectorTypeFace"
/// A detector type: rectangles.
public let CIDetectorTypeRectangle = "CIDetectorTypeRectangle"
/// A detector type: QR codes.
public let CIDetectorTypeQRCode = "CIDetectorTypeQRCode"
/// A detector type: text regions.
public let CIDetectorTypeText = "CIDetectorTypeText"
/// Detector option: `CIDetectorAccuracyLow` or `CIDetectorAccuracyHigh`.
public let CIDetectorAccuracy = "CIDetectorAccuracy"
/// `CIDetectorAccuracy` value: faster, less accurate.
public let CIDetectorAccuracyLow = "CIDetectorAccuracyLow"
/// `CIDetectorAccuracy` value: slower, more accurate.
public let CIDetectorAccuracyHigh = "CIDetectorAccuracyHigh"
/// Detector option: track faces across video frames.
public let CIDetectorTracking = "CIDetectorTracking"
/// Detector option: the smallest feature size, relative to the image.
public let CIDetectorMinFeatureSize = "CIDetectorMinFeatureSize"
/// Detector option: the most features to return.
public let CIDetectorMaxFeatureCount = "CIDetectorMaxFeatureCount"
/// Feature option: the image's EXIF orientation, 1…8.
public let CIDetectorImageOrientation = "CIDetectorImageOrientation"
/// Feature option: detect eye blinks.
public let CIDetectorEyeBlink = "CIDetectorEyeBlink"
/// Feature option: detect smiles.
public let CIDetectorSmile = "CIDetectorSmile"
/// Feature option: the expected aspect ratio of rectangles.
public let CIDetectorAspectRatio = "CIDetectorAspectRatio"
/// Feature option: the expected focal length.
public let CIDetectorFocalLength = "CIDetectorFocalLength"
/// Feature option: the number of angles faces are searched at.
public let CIDetectorNumberOfAngles = "CIDetectorNumberOfAngles"
/// Feature option: return sub-features of text.
public let CIDetectorReturnSubFeatures = "CIDetectorReturnSubFeatures"

/// A feature type: a face.
public let CIFeatureTypeFace = "Face"
/// A feature type: a rectangle.
public let CIFeatureTypeRectangle = "Rectangle"
/// A feature type: a QR code.
public let CIFeatureTypeQRCode = "QRCode"
/// A feature type: text.
public let CIFeatureTypeText = "Text"

/// A feature a detector found: its type and bounds in image coordinates.
open class CIFeature: NSObject, @unchecked Sendable {
    /// `CIFeatureTypeFace`, `CIFeatureTypeRectangle`, `CIFeatureTypeQRCode` or `CIFeatureTypeText`.
    open var type: String { "" }
    /// Where the feature is, in image coordinates.
    open var bounds: CGRect { .zero }
}

/// A quadrilateral feature: its corners and bounds.
open class CIRectangleFeature: CIFeature, @unchecked Sendable {
    /// `CIFeatureTypeRectangle`.
    open override var type: String { CIFeatureTypeRectangle }
    /// The top-left corner.
    open var topLeft: CGPoint { .zero }
    /// The top-right corner.
    open var topRight: CGPoint { .zero }
    /// The bottom-left corner.
    open var bottomLeft: CGPoint { .zero }
    /// The bottom-right corner.
    open var bottomRight: CGPoint { .zero }
}

/// A QR code feature: the corners and the decoded message.
open class CIQRCodeFeature: CIFeature, @unchecked Sendable {
    /// `CIFeatureTypeQRCode`.
    open override var type: String { CIFeatureTypeQRCode }
    /// The top-left corner.
    open var topLeft: CGPoint { .zero }
    /// The top-right corner.
    open var topRight: CGPoint { .zero }
    /// The bottom-left corner.
    open var bottomLeft: CGPoint { .zero }
    /// The bottom-right corner.
    open var bottomRight: CGPoint { .zero }
    /// The decoded message as text, when it is text.
    open var messageString: String? { nil }
}

/// A text-region feature: the corners and any sub-features.
open class CITextFeature: CIFeature, @unchecked Sendable {
    /// `CIFeatureTypeText`.
    open override var type: String { CIFeatureTypeText }
    /// The top-left corner.
    open var topLeft: CGPoint { .zero }
    /// The top-right corner.
    open var topRight: CGPoint { .zero }
    /// The bottom-left corner.
    open var bottomLeft: CGPoint { .zero }
    /// The bottom-right corner.
    open var bottomRight: CGPoint { .zero }
    /// Features inside the region (characters), when asked for.
    open var subFeatures: [Any]? { nil }
}

/// A face feature: bounds, eyes and mouth.
open class CIFaceFeature: CIFeature, @unchecked Sendable {
    /// `CIFeatureTypeFace`.
    open override var type: String { CIFeatureTypeFace }
    /// Whether the left eye was found.
    open var hasLeftEyePosition: Bool { false }
    /// The left eye's centre.
    open var leftEyePosition: CGPoint { .zero }
    /// Whether the right eye was found.
    open var hasRightEyePosition: Bool { false }
    /// The right eye's centre.
    open var rightEyePosition: CGPoint { .zero }
    /// Whether the mouth was found.
    open var hasMouthPosition: Bool { false }
    /// The mouth's centre.
    open var mouthPosition: CGPoint { .zero }
    /// Whether the face smiles.
    open var hasSmile: Bool { false }
}
