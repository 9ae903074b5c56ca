// ci-card PHOTO OUT.jpg URL — a share card: the photo, toned and vignetted, with a QR code
// of URL in the corner. Core Image code as it is written for Apple platforms.
#if canImport(CoreImage)
import CoreImage
import CoreImage.CIFilterBuiltins
#else
import LumenCoreImage
#endif
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: ci-card PHOTO OUT.jpg URL\n".utf8))
    exit(2)
}
guard let photo = CIImage(contentsOf: URL(fileURLWithPath: arguments[1]), options: [.applyOrientationProperty: true]) else {
    FileHandle.standardError.write(Data("ci-card: cannot read \(arguments[1])\n".utf8))
    exit(1)
}

// Tone: a little sepia, then a vignette centred on the photo.
let sepia = CIFilter.sepiaTone()
sepia.inputImage = photo
sepia.intensity = 0.35
let vignette = CIFilter.vignetteEffect()
vignette.inputImage = sepia.outputImage
vignette.center = CGPoint(x: photo.extent.midX, y: photo.extent.midY)
vignette.radius = Float(min(photo.extent.width, photo.extent.height) * 0.6)
vignette.intensity = 0.7

// The QR code: one pixel per module from Core Image, scaled up without smoothing.
let qr = CIFilter.qrCodeGenerator()
qr.message = Data(arguments[3].utf8)
qr.correctionLevel = "M"
guard let toned = vignette.outputImage, let symbol = qr.outputImage else { exit(1) }
let module = max(2, (photo.extent.height * 0.2 / symbol.extent.height).rounded(.down))
let code = symbol.samplingNearest()
    .transformed(by: CGAffineTransform(scaleX: module, y: module))
    .transformed(by: CGAffineTransform(translationX: photo.extent.maxX - symbol.extent.width * module - 16, y: 16))

let card = code.composited(over: toned).cropped(to: photo.extent)
let context = CIContext(options: [.cacheIntermediates: false])
do {
    try context.writeJPEGRepresentation(of: card, to: URL(fileURLWithPath: arguments[2]),
                                        colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!,
                                        options: [CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality as String): 0.85])
} catch {
    FileHandle.standardError.write(Data("ci-card: \(error)\n".utf8))
    exit(1)
}
