// From Lepton's Filter/Filter.swift (a corpus file of its own), and Lepton's own declarations in
// Renderer/Renderer.swift and Renderer/PixelBuffer.swift (kept here, not in a repository-wide stub,
// because only this file uses them).
import LumenCoreImage
import CorpusStubs

public protocol FilterProtocol {
    var filter: CIFilter { get }
    var name: String { get }
    var isEnabled: Bool { get }
    func image(by processingImage: CIImage, at time: Float64) -> CIImage
}
extension FilterProtocol {
    public var isEnabled: Bool { true }
    public var name: String { "" }
    public func image(by processingImage: CIImage, at time: Float64 = 0) -> CIImage { processingImage }
}

public protocol Renderer {
    var inputPixelFormat: FourCharCode { get }
    func copyRenderedPixelBuffer(_ pixelBuffer: CVPixelBuffer) -> CVPixelBuffer
    func reset()
}

func createPixelBufferPoll(width: Int32, height: Int32, pixelFormat: OSType, maxBufferCount: Int32) -> CVPixelBufferPool? { nil }
func createPixelBufferPoolAuxAttribute(maxBufferCount: Int32) -> NSDictionary { [:] }
func preallocatePixelBuffers(in bufferPool: CVPixelBufferPool, auxAttributes: NSDictionary) {}
