// From CoreImageExtensions' CIContext+Async.swift (a corpus file of its own).
import LumenCoreImage

public extension CIContext {
    actor Actor {
        public private(set) weak var context: CIContext!
        init(_ ciContext: CIContext) { context = ciContext }
    }
}
