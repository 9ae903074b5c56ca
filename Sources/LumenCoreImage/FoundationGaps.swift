// Foundation API that `import CoreImage` brings on Apple platforms and that Foundation on
// Linux lacks. Only what Core Image client code in the wild uses (Tests/CoreImageCorpus).
import Foundation

#if !canImport(Darwin)
extension String {
    /// The localised string for `key` from `bundle`'s strings tables (`table`, else
    /// Localizable.strings), or `key` itself when no table has it, as Apple's Foundation
    /// does. On Apple platforms the key is a `String.LocalizationValue`, whose interpolated
    /// values become format arguments; here an interpolated key is looked up as written.
    public init(localized key: String, table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current,
                comment: StaticString? = nil) {
        self = (bundle ?? .main).localizedString(forKey: key, value: key, table: table)
    }
}
#endif
