// Stubs of the NON-Core-Image platform APIs that the corpus files touch (UIKit, SwiftUI,
// QuartzCore, ObjectiveC, MobileCoreServices, UniformTypeIdentifiers, CoreMedia, AVFoundation,
// Accelerate, Flutter, MLX), so that
// scripts/compile-corpus.py can type-check the files on Linux. Declarations only, with
// plausible signatures; the bodies are placeholders and are never run.
//
// Nothing here declares a Core Image, Core Graphics, ImageIO, Core Video or Foundation type:
// those come from LumenCoreImage (and Foundation), and a file that needs one LumenCoreImage
// lacks fails. The only additions to Core Image classes are UIKit's own (`CIImage(image:)`,
// `CIColor(color:)`), which Apple declares in UIKit, not in Core Image.
import LumenCoreImage

// MARK: - UIKit

/// UIKit's image.
open class UIImage: NSObject, @unchecked Sendable {
    /// UIKit's image orientations.
    public enum Orientation: Int, Sendable { case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored }
    /// How the image is tinted.
    public enum RenderingMode: Int, Sendable { case automatic, alwaysOriginal, alwaysTemplate }

    public let cgImage: CGImage?
    public let ciImage: CIImage?
    public let scale: CGFloat
    public let imageOrientation: Orientation
    public var size: CGSize { CGSize(width: cgImage?.width ?? 0, height: cgImage?.height ?? 0) }

    public override init() { cgImage = nil; ciImage = nil; scale = 1; imageOrientation = .up }
    public init(cgImage: CGImage) { self.cgImage = cgImage; ciImage = nil; scale = 1; imageOrientation = .up }
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.cgImage = cgImage; ciImage = nil; self.scale = scale; imageOrientation = orientation
    }
    public init(ciImage: CIImage) { cgImage = nil; self.ciImage = ciImage; scale = 1; imageOrientation = .up }
    public init(ciImage: CIImage, scale: CGFloat, orientation: Orientation) {
        cgImage = nil; self.ciImage = ciImage; self.scale = scale; imageOrientation = orientation
    }
    public init?(data: Data) { fatalError("stub") }
    public init?(named name: String) { fatalError("stub") }
    public init?(contentsOfFile path: String) { fatalError("stub") }
    /// What `#imageLiteral(resourceName:)` calls.
    public required convenience init(imageLiteralResourceName name: String) { self.init() }

    /// UIKit's symbol/trait configuration of an image.
    open class Configuration: NSObject, @unchecked Sendable {}
    public var renderingMode: RenderingMode { .automatic }
    public var alignmentRectInsets: UIEdgeInsets { UIEdgeInsets() }
    public var configuration: Configuration? { nil }
    public var baselineOffsetFromBottom: CGFloat? { nil }
    public func withAlignmentRectInsets(_ alignmentInsets: UIEdgeInsets) -> UIImage { self }
    public func withConfiguration(_ configuration: Configuration) -> UIImage { self }
    public func withBaselineOffset(fromBottom baselineOffset: CGFloat) -> UIImage { self }
    public func draw(at point: CGPoint, blendMode: CGBlendMode, alpha: CGFloat) {}

    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage { self }
    public func draw(in rect: CGRect) {}
    public func draw(at point: CGPoint) {}
    public func jpegData(compressionQuality: CGFloat) -> Data? { nil }
    public func pngData() -> Data? { nil }
}

/// Lets `#imageLiteral(resourceName:)` make a UIImage.
extension UIImage: _ExpressibleByImageLiteral {}

/// UIKit's edge insets.
public struct UIEdgeInsets: Sendable {
    public var top: CGFloat = 0, left: CGFloat = 0, bottom: CGFloat = 0, right: CGFloat = 0
    public init() {}
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
}

/// UIKit's colour.
open class UIColor: NSObject, @unchecked Sendable {
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
    public init(white: CGFloat, alpha: CGFloat) {}
    public init(ciColor: CIColor) {}
    public init(cgColor: CGColor) {}
    public func setFill() {}
    public func setStroke() {}
    public var cgColor: CGColor { CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
    public func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                       blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool { false }
    public static var black: UIColor { UIColor(white: 0, alpha: 1) }
    public static var white: UIColor { UIColor(white: 1, alpha: 1) }
    public static var clear: UIColor { UIColor(white: 0, alpha: 0) }
}

/// UIKit's screen.
open class UIScreen: NSObject, @unchecked Sendable {
    public static var main: UIScreen { UIScreen() }
    public var bounds: CGRect { .zero }
    public var scale: CGFloat { 1 }
}

/// UIKit's view (only what the corpus names).
open class UIView: NSObject, @unchecked Sendable {
    public var bounds: CGRect = .zero
    public var frame: CGRect = .zero
    public var transform: CGAffineTransform = .identity
    public override init() {}
    public init(frame: CGRect) { self.frame = frame }
}

/// UIKit's Bézier path.
open class UIBezierPath: NSObject, @unchecked Sendable {
    public init(rect: CGRect) {}
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {}
    public func addClip() {}
    public func fill() {}
    public func stroke() {}
}

/// Fills a rectangle of the current UIKit context with the fill colour.
public func UIRectFill(_ rect: CGRect) {}

/// Starts a UIKit image context.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {}
/// Starts a UIKit image context at scale 1.
public func UIGraphicsBeginImageContext(_ size: CGSize) {}
/// The current UIKit drawing context.
public func UIGraphicsGetCurrentContext() -> CGContext? { nil }
/// The image drawn in the current UIKit image context.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? { nil }
/// Ends a UIKit image context.
public func UIGraphicsEndImageContext() {}
/// Makes `context` the current UIKit context.
public func UIGraphicsPushContext(_ context: CGContext) {}
/// Restores the previous UIKit context.
public func UIGraphicsPopContext() {}

/// UIKit's renderer's drawing context.
open class UIGraphicsImageRendererContext: NSObject, @unchecked Sendable {
    public var cgContext: CGContext { fatalError("stub") }
    public var currentImage: UIImage { fatalError("stub") }
}

/// UIKit's renderer's format.
open class UIGraphicsImageRendererFormat: NSObject, @unchecked Sendable {
    public var scale: CGFloat = 1
    public var opaque: Bool = false
    public static func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// UIKit's image renderer.
open class UIGraphicsImageRenderer: NSObject, @unchecked Sendable {
    public init(size: CGSize) {}
    public init(size: CGSize, format: UIGraphicsImageRendererFormat) {}
    public init(bounds: CGRect) {}
    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {}
    public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage { fatalError("stub") }
    public func jpegData(withCompressionQuality compressionQuality: CGFloat, actions: (UIGraphicsImageRendererContext) -> Void) -> Data { fatalError("stub") }
    public func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data { fatalError("stub") }
}

extension UIGraphicsImageRenderer {
    /// The `(size:scale:)` and `(bounds:scale:opaque:)` conveniences UIKit's Swift overlay adds.
    public convenience init(size: CGSize, scale: CGFloat, opaque: Bool = false) { self.init(size: size) }
    public convenience init(bounds: CGRect, scale: CGFloat, opaque: Bool = false) { self.init(bounds: bounds) }
}

// UIKit's additions to Core Image classes (declared in UIKit's UIImage.h / UIColor.h, not in Core Image).
extension CIImage {
    /// UIKit: the image of a UIImage.
    public convenience init?(image: UIImage) { fatalError("stub") }
    /// UIKit: the image of a UIImage with options.
    public convenience init?(image: UIImage, options: [CIImageOption: Any]? = nil) { fatalError("stub") }
}

extension CIColor {
    /// UIKit: the colour of a UIColor.
    public convenience init(color: UIColor) { self.init(red: 0, green: 0, blue: 0, alpha: 1) }
}

// MARK: - SwiftUI

/// SwiftUI's image view.
public struct Image: Sendable {
    /// SwiftUI's image orientations.
    public enum Orientation: UInt8, Sendable { case up, upMirrored, down, downMirrored, left, leftMirrored, right, rightMirrored }
    public init(uiImage: UIImage) {}
    public init(decorative cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up) {}
    public init(_ cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up, label: String) {}
    public init(systemName: String) {}
}

/// Lets `SwiftUI.Image` be written qualified, as files that also define their own `Image` do.
public enum SwiftUI {
    public typealias Image = CorpusStubs.Image
}

// MARK: - QuartzCore, ObjectiveC

/// QuartzCore: seconds since boot.
public func CACurrentMediaTime() -> CFTimeInterval { 0 }
/// Core Foundation's time interval.
public typealias CFTimeInterval = Double

/// QuartzCore's layer (only what the corpus names).
open class CALayer: NSObject, @unchecked Sendable {
    public var frame: CGRect = .zero
    public func addSublayer(_ layer: CALayer) {}
}

/// MacTypes' four-character code (Darwin's basic types, not Core Video's).
public typealias FourCharCode = UInt32

/// The Objective-C runtime's autorelease pool: on Linux there is none, so the body just runs.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result { try body() }

// MARK: - MobileCoreServices, UniformTypeIdentifiers

/// MobileCoreServices' type identifier of PNG.
public let kUTTypePNG = "public.png" as CFString
/// MobileCoreServices' type identifier of JPEG.
public let kUTTypeJPEG = "public.jpeg" as CFString
/// MobileCoreServices' type identifier of TIFF.
public let kUTTypeTIFF = "public.tiff" as CFString

/// MobileCoreServices' tag class of file-name extensions.
public let kUTTagClassFilenameExtension = "public.filename-extension" as CFString
/// Stands in for `Unmanaged<CFString>`: CFString is not a class on Linux (it is String), so
/// `Unmanaged` cannot wrap it; this has the two members callers use.
public struct UnmanagedCFString {
    public func takeRetainedValue() -> CFString { "" }
    public func takeUnretainedValue() -> CFString { "" }
}
/// MobileCoreServices: the type identifier for a tag (such as a file-name extension).
public func UTTypeCreatePreferredIdentifierForTag(_ inTagClass: CFString, _ inTag: CFString,
                                                  _ inConformingToUTI: CFString?) -> UnmanagedCFString? { nil }
/// MobileCoreServices: whether a type identifier conforms to another.
public func UTTypeConformsTo(_ inUTI: CFString, _ inConformsToUTI: CFString) -> Bool { false }

/// UniformTypeIdentifiers' type.
public struct UTType: Hashable, Sendable {
    public let identifier: String
    public init?(_ identifier: String) { self.identifier = identifier }
    public init?(filenameExtension: String) { fatalError("stub") }
    public var preferredFilenameExtension: String? { nil }
    public static let png = UTType(identifier: "public.png")
    public static let jpeg = UTType(identifier: "public.jpeg")
    public static let heic = UTType(identifier: "public.heic")
    public static let tiff = UTType(identifier: "public.tiff")
    public static let image = UTType(identifier: "public.image")
    init(identifier: String) { self.identifier = identifier }
}

// MARK: - CoreMedia

/// CoreMedia's time value type.
public typealias CMTimeValue = Int64
/// CoreMedia's time scale type.
public typealias CMTimeScale = Int32

/// CoreMedia's rational time.
public struct CMTime: Comparable, Sendable {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public init(value: CMTimeValue, timescale: CMTimeScale) { self.value = value; self.timescale = timescale }
    public init(seconds: Double, preferredTimescale: CMTimeScale) { value = 0; timescale = preferredTimescale }
    public static let zero = CMTime(value: 0, timescale: 1)
    public var seconds: Double { Double(value) / Double(timescale) }
    public static func < (a: CMTime, b: CMTime) -> Bool { a.seconds < b.seconds }
}

/// CoreMedia's time range.
public struct CMTimeRange: Sendable {
    public var start: CMTime
    public var duration: CMTime
    public init(start: CMTime, end: CMTime) { self.start = start; duration = end }
    public init(start: CMTime, duration: CMTime) { self.start = start; self.duration = duration }
}

/// CoreMedia's sample buffer.
public final class CMSampleBuffer: @unchecked Sendable {}

/// CoreMedia's track identifier.
public typealias CMPersistentTrackID = Int32
/// CoreMedia: "no track identifier".
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0

/// CoreMedia's media format description.
open class CMFormatDescription: @unchecked Sendable {
    /// The format description's extensions dictionary.
    public struct Extensions: Sendable {
        public struct Key: Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let formatName = Key(rawValue: "FormatName")
        }
        public enum Value: Equatable, @unchecked Sendable {
            case string(String)
            public var propertyListRepresentation: Any { "" }
        }
        public subscript(key: Key) -> Value? { nil }
    }
    public var extensions: Extensions { Extensions() }
}
/// CoreMedia's video format description.
public typealias CMVideoFormatDescription = CMFormatDescription

// MARK: - AVFoundation

/// AVFoundation's media types.
public struct AVMediaType: Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let video = AVMediaType(rawValue: "vide")
    public static let audio = AVMediaType(rawValue: "soun")
}

/// AVFoundation's asynchronously loaded property.
public struct AVAsyncProperty<Root, Value>: Sendable {}
extension AVAsyncProperty where Root == AVAsset, Value == CMTime {
    public static var duration: AVAsyncProperty<AVAsset, CMTime> { AVAsyncProperty() }
}
extension AVAsyncProperty where Root == AVAssetTrack, Value == Bool {
    public static var isDecodable: AVAsyncProperty<AVAssetTrack, Bool> { AVAsyncProperty() }
}

/// AVFoundation's asset.
open class AVAsset: NSObject, @unchecked Sendable {
    public init(url: URL) {}
    public override init() {}
    public var duration: CMTime { .zero }
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] { [] }
    public func load<T>(_ property: AVAsyncProperty<AVAsset, T>) async throws -> T { fatalError("stub") }
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] { [] }
}

/// AVFoundation's asset track.
open class AVAssetTrack: NSObject, @unchecked Sendable {
    public var formatDescriptions: [Any] { [] }
    public var naturalSize: CGSize { .zero }
    open var preferredTransform: CGAffineTransform = .identity
    public func load<T>(_ property: AVAsyncProperty<AVAssetTrack, T>) async throws -> T { fatalError("stub") }
}

/// AVFoundation's frame extractor.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    public init(asset: AVAsset) {}
    public var appliesPreferredTrackTransform = false
    public var requestedTimeToleranceBefore = CMTime.zero
    public var requestedTimeToleranceAfter = CMTime.zero
    public var maximumSize = CGSize.zero

    /// The frames at the requested times, as they are decoded.
    public struct Images: AsyncSequence {
        public enum Element {
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            case failure(requestedTime: CMTime, error: Error)
        }
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Element? { nil }
        }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
    public func images(for times: [CMTime]) -> Images { Images() }
}

/// AVFoundation's composition track.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {}

/// AVFoundation's editable composition track.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    public func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {}
}

/// AVFoundation's editable composition.
open class AVMutableComposition: AVAsset, @unchecked Sendable {
    public func addMutableTrack(withMediaType mediaType: AVMediaType,
                                preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? { nil }
}

/// AVFoundation's request to filter one video frame with Core Image.
open class AVAsynchronousCIImageFilteringRequest: NSObject, @unchecked Sendable {
    public var sourceImage: CIImage { fatalError("stub") }
    public var renderSize: CGSize { .zero }
    public var compositionTime: CMTime { .zero }
    public func finish(with filteredImage: CIImage, context: CIContext?) {}
    public func finish(with error: Error) {}
}

/// AVFoundation's instruction protocol of a video composition.
public protocol AVVideoCompositionInstructionProtocol: AnyObject {}

/// AVFoundation's layer instruction.
open class AVVideoCompositionLayerInstruction: NSObject, @unchecked Sendable {}

/// AVFoundation's editable layer instruction.
open class AVMutableVideoCompositionLayerInstruction: AVVideoCompositionLayerInstruction, @unchecked Sendable {
    public init(assetTrack track: AVAssetTrack) {}
    public func setTransform(_ transform: CGAffineTransform, at time: CMTime) {}
}

/// AVFoundation's editable composition instruction.
open class AVMutableVideoCompositionInstruction: NSObject, AVVideoCompositionInstructionProtocol, @unchecked Sendable {
    public var timeRange = CMTimeRange(start: .zero, duration: .zero)
    public var layerInstructions: [AVVideoCompositionLayerInstruction] = []
}

/// AVFoundation's Core Animation post-processing of a video composition.
open class AVVideoCompositionCoreAnimationTool: NSObject, @unchecked Sendable {
    public init(postProcessingAsVideoLayer videoLayer: CALayer, in animationLayer: CALayer) {}
}

/// AVFoundation's video composition.
open class AVVideoComposition: NSObject, @unchecked Sendable {
    public override init() {}
    public convenience init(asset: AVAsset,
                            applyingCIFiltersWithHandler applier: @escaping (AVAsynchronousCIImageFilteringRequest) -> Void) {
        self.init()
    }
}

/// AVFoundation's editable video composition.
open class AVMutableVideoComposition: AVVideoComposition, @unchecked Sendable {
    public var instructions: [AVVideoCompositionInstructionProtocol] = []
    public var renderSize: CGSize = .zero
    public var frameDuration: CMTime = .zero
    public var animationTool: AVVideoCompositionCoreAnimationTool?
}

/// AVFoundation's player item.
open class AVPlayerItem: NSObject, @unchecked Sendable {
    public init(asset: AVAsset) {}
    public var videoComposition: AVVideoComposition?
}

/// AVFoundation's file types.
public struct AVFileType: Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
}

/// AVFoundation's export presets.
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"

/// AVFoundation's export session.
open class AVAssetExportSession: NSObject, @unchecked Sendable {
    public enum Status: Int, Sendable { case unknown, waiting, exporting, completed, failed, cancelled }
    public init?(asset: AVAsset, presetName: String) {}
    public var videoComposition: AVVideoComposition?
    public var outputFileType: AVFileType?
    public var outputURL: URL?
    public var progress: Float { 0 }
    public var error: Error? { nil }
    public var status: Status { .unknown }
    public func exportAsynchronously(completionHandler handler: @escaping () -> Void) {}
    public func cancelExport() {}
    public class func exportPresets(compatibleWith asset: AVAsset) -> [String] { [] }
}

// MARK: - Accelerate (vDSP, vImage)

public typealias vDSP_Stride = Int
public typealias vDSP_Length = UInt
/// vDSP: converts unsigned 8-bit integers to single-precision floats.
public func vDSP_vfltu8(_ A: UnsafePointer<UInt8>, _ IA: vDSP_Stride, _ C: UnsafeMutablePointer<Float>,
                        _ IC: vDSP_Stride, _ N: vDSP_Length) {}
/// vDSP: divides a vector by a scalar.
public func vDSP_vsdiv(_ A: UnsafePointer<Float>, _ IA: vDSP_Stride, _ B: UnsafePointer<Float>,
                       _ C: UnsafeMutablePointer<Float>, _ IC: vDSP_Stride, _ N: vDSP_Length) {}

public typealias vImagePixelCount = UInt
public typealias vImage_Error = Int
public typealias vImage_Flags = UInt32
public var kvImageNoFlags: Int { 0 }
public var kvImageNoError: Int { 0 }
public var kvImageHighQualityResampling: Int { 32 }

/// vImage's image buffer.
public struct vImage_Buffer {
    public var data: UnsafeMutableRawPointer!
    public var height: vImagePixelCount
    public var width: vImagePixelCount
    public var rowBytes: Int
    public init() { data = nil; height = 0; width = 0; rowBytes = 0 }
    public init(data: UnsafeMutableRawPointer!, height: vImagePixelCount, width: vImagePixelCount, rowBytes: Int) {
        self.data = data; self.height = height; self.width = width; self.rowBytes = rowBytes
    }
}

/// vImage's description of a Core Graphics image format.
public struct vImage_CGImageFormat {
    public var bitsPerComponent: UInt32
    public var bitsPerPixel: UInt32
    public var colorSpace: Unmanaged<CGColorSpace>!
    public var bitmapInfo: CGBitmapInfo
    public var version: UInt32
    public var decode: UnsafePointer<CGFloat>!
    public var renderingIntent: CGColorRenderingIntent
    public init(bitsPerComponent: UInt32, bitsPerPixel: UInt32, colorSpace: Unmanaged<CGColorSpace>!,
                bitmapInfo: CGBitmapInfo, version: UInt32, decode: UnsafePointer<CGFloat>!,
                renderingIntent: CGColorRenderingIntent) {
        self.bitsPerComponent = bitsPerComponent; self.bitsPerPixel = bitsPerPixel; self.colorSpace = colorSpace
        self.bitmapInfo = bitmapInfo; self.version = version; self.decode = decode; self.renderingIntent = renderingIntent
    }
}

/// vImage: fills a buffer from a CGImage.
public func vImageBuffer_InitWithCGImage(_ buf: UnsafeMutablePointer<vImage_Buffer>!,
                                         _ format: UnsafeMutablePointer<vImage_CGImageFormat>!,
                                         _ backgroundColor: UnsafePointer<CGFloat>!, _ image: CGImage!,
                                         _ flags: vImage_Flags) -> vImage_Error { 0 }
/// vImage: scales an ARGB8888 buffer.
public func vImageScale_ARGB8888(_ src: UnsafePointer<vImage_Buffer>!, _ dest: UnsafePointer<vImage_Buffer>!,
                                 _ tempBuffer: UnsafeMutableRawPointer!, _ flags: vImage_Flags) -> vImage_Error { 0 }
/// vImage: makes a CGImage from a buffer.
public func vImageCreateCGImageFromBuffer(_ buf: UnsafePointer<vImage_Buffer>!,
                                          _ format: UnsafePointer<vImage_CGImageFormat>!,
                                          _ callback: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void)!,
                                          _ userData: UnsafeMutableRawPointer!, _ flags: vImage_Flags,
                                          _ error: UnsafeMutablePointer<vImage_Error>!) -> Unmanaged<CGImage>! { nil }

// MARK: - Flutter (flutter/engine's iOS embedding)

/// Flutter's error value.
open class FlutterError: NSObject, @unchecked Sendable {
    public init(code: String, message: String?, details: Any?) {}
}
/// Flutter's typed byte buffer.
open class FlutterStandardTypedData: NSObject, @unchecked Sendable {
    public let data: Data
    public init(bytes data: Data) { self.data = data }
}
/// Flutter's message channel endpoint.
public protocol FlutterBinaryMessenger: AnyObject {}
/// Flutter's plug-in registrar.
public protocol FlutterPluginRegistrar: AnyObject {
    func lookupKey(forAsset asset: String) -> String
    func messenger() -> FlutterBinaryMessenger
}
/// Flutter's event callback.
public typealias FlutterEventSink = (Any?) -> Void
/// Flutter's event stream handler.
public protocol FlutterStreamHandler: AnyObject {
    func onListen(withArguments arguments: Any?, eventSink events: @escaping FlutterEventSink) -> FlutterError?
    func onCancel(withArguments arguments: Any?) -> FlutterError?
}
/// Flutter's event channel.
open class FlutterEventChannel: NSObject, @unchecked Sendable {
    public init(name: String, binaryMessenger messenger: FlutterBinaryMessenger) {}
    public func setStreamHandler(_ handler: FlutterStreamHandler?) {}
}

// MARK: - MLX (ml-explore/mlx-swift)

/// MLX's array (only the members the corpus uses).
public final class MLXArray: @unchecked Sendable {
    public init(_ data: Data, _ shape: [Int], type: Any.Type) { fatalError("stub") }
    public init<T>(_ value: T) { fatalError("stub") }
    public init<T>(_ values: [T], _ shape: [Int]) { fatalError("stub") }
    public var ndim: Int { 0 }
    public var shape: [Int] { [] }
    public var shape3: (Int, Int, Int) { (0, 0, 0) }
    public func dim(_ axis: Int) -> Int { 0 }
    public func asData(access: MLXArray.DataAccess = .copy) -> MLXArrayData { fatalError("stub") }
    public func asType<T>(_ type: T.Type) -> MLXArray { self }
    public func asArray<T>(_ type: T.Type) -> [T] { [] }
    public func item<T>(_ type: T.Type) -> T { fatalError("stub") }
    public func reshaped(_ shape: [Int]) -> MLXArray { self }
    public func reshaped(_ shape: Int...) -> MLXArray { self }
    public func transposed(_ axes: Int...) -> MLXArray { self }
    public func transposed(axes: [Int]) -> MLXArray { self }
    public func expandedDimensions(axis: Int) -> MLXArray { self }
    public subscript(_ indices: any MLXArrayIndex...) -> MLXArray { self }
    public static func linspace<T>(_ start: T, _ stop: T, count: Int) -> MLXArray { fatalError("stub") }
    /// How `asData` hands the bytes over.
    public enum DataAccess: Sendable { case copy, noCopy }
}

/// The bytes of an MLXArray.
public struct MLXArrayData {
    public let data: Data
    public let shape: [Int]
}

/// What an MLXArray subscript takes.
public protocol MLXArrayIndex {}
extension Int: MLXArrayIndex {}
extension PartialRangeFrom<Int>: MLXArrayIndex {}
extension PartialRangeUpTo<Int>: MLXArrayIndex {}
extension Range<Int>: MLXArrayIndex {}
extension ClosedRange<Int>: MLXArrayIndex {}

/// A padding width of `padded(_:widths:value:)`: one number or a (before, after) pair.
public struct IntOrPair: ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral {
    public init(integerLiteral value: Int) {}
    public init(arrayLiteral elements: Int...) {}
}

/// MLX's padding.
public func padded(_ array: MLXArray, widths: [IntOrPair], value: MLXArray? = nil) -> MLXArray { array }
/// MLX's concatenation.
public func concatenated(_ arrays: [MLXArray], axis: Int = 0) -> MLXArray { fatalError("stub") }
/// MLX's stacking.
public func stacked(_ arrays: [MLXArray], axis: Int = 0) -> MLXArray { fatalError("stub") }

public func / (lhs: MLXArray, rhs: MLXArray) -> MLXArray { lhs }
public func / (lhs: MLXArray, rhs: Float) -> MLXArray { lhs }
public func - (lhs: MLXArray, rhs: MLXArray) -> MLXArray { lhs }
public func * (lhs: MLXArray, rhs: Float) -> MLXArray { lhs }
