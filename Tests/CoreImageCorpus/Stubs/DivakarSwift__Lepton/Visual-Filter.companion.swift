// From Lepton's Lepton/Filter/Filter.swift (a corpus file of its own), which Visual imports as module Lepton.
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
