// native_filters' own types that the corpus files use: the Pigeon-generated message classes and
// API protocol of ios/Classes/messages.g.h (Objective-C, generated from the package's Dart API).
import LumenCoreImage
import CorpusStubs

public protocol FLTImageVideoFilterFactoryApi {}

public class FLTCreateFilterMessage: NSObject { public var name: String = "" }
public class FLTFilterMessage: NSObject {
    public var filterId: NSNumber = 0
    public static func make(withFilterId filterId: NSNumber) -> FLTFilterMessage { FLTFilterMessage() }
}
public class FLTAppendFilterMessage: NSObject { public var name = ""; public var filterId: NSNumber = 0 }
public class FLTRemoveFilterMessage: NSObject { public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0 }
public class FLTReplaceFilterMessage: NSObject {
    public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0; public var name = ""
}
public class FLTInputSourceMessage: NSObject {
    public var filterId: NSNumber = 0; public var path = ""; public var asset: NSNumber = 0; public var video: NSNumber = 0
}
public class FLTInputDataMessage: NSObject {
    public var filterId: NSNumber = 0; public var data = FlutterStandardTypedData(bytes: Data())
}
public class FLTExportFileMessage: NSObject {
    public var filterId: NSNumber = 0; public var path = ""; public var context = ""
    public var presetName: String?; public var period: NSNumber = 0
}
public class FLTExportDataMessage: NSObject {
    public var filterId: NSNumber = 0; public var data: FlutterStandardTypedData?; public var context = ""
    public static func make(withFilterId filterId: NSNumber, data: FlutterStandardTypedData?, context: String) -> FLTExportDataMessage {
        FLTExportDataMessage()
    }
}
public class FLTInputNumberValueMessage: NSObject {
    public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0; public var key = ""; public var value: NSNumber = 0
}
public class FLTInputNumberListValueMessage: NSObject {
    public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0; public var key = ""; public var value: [NSNumber] = []
}
public class FLTInputDataValueMessage: NSObject {
    public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0; public var key = ""
    public var value = FlutterStandardTypedData(bytes: Data()); public var lut8x64: NSNumber = 0; public var process: NSNumber = 0
}
public class FLTInputDataSourceValueMessage: NSObject {
    public var filterId: NSNumber = 0; public var filterIndex: NSNumber = 0; public var key = ""
    public var value = ""; public var lut8x64: NSNumber = 0; public var process: NSNumber = 0
}
public class FLTCreateShaderFilterMessage: NSObject {
    public var vertex: String?; public var shader = ""; public var twoInput: NSNumber = 0
    public var params: [String: [String: Any]] = [:]
}
public class FLTAppendShaderFilterMessage: NSObject {
    public var filterId: NSNumber = 0; public var vertex: String?; public var shader = ""
    public var params: [String: [String: Any]] = [:]
}
