// From AirKit's CICategory.swift (a corpus file of its own).
import LumenCoreImage

public struct CICategory {
    public let name: String
    public let parameters: [String: Any]?
    public init(name: String, parameters: [String: Any]? = nil) { self.name = name; self.parameters = parameters }
}
