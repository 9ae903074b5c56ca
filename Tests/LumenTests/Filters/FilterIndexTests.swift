import Foundation
import Testing
@testable import Lumen

/// `FilterRegistry.descriptor(named:)` looks names up in a generated index that builds one
/// descriptor, not the catalogue (`FilterRegistry+Index.swift`): it must answer to the same
/// names, with the same filters, as a table made from `all`, and be regenerated when `all`
/// changes.
@Suite struct FilterIndexTests {
    @Test func theIndexIsWhatTheRegistryGives() throws {
        let lumen = CommandLineTests.binary.path
        let script = Paths.root.appendingPathComponent("scripts/generate-filter-index.py").path
        let check = try runToEnd("/bin/sh", ["-c", "'\(lumen)' filters --json | python3 '\(script)' --check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(FilterRegistry.names.count == FilterRegistry.all.count)
        for (entry, descriptor) in zip(FilterRegistry.names, FilterRegistry.all) {
            #expect(entry.name == descriptor.name.lowercased() && entry.coreImageName == descriptor.coreImageName?.lowercased())
            #expect(entry.make().name == descriptor.name)
        }
    }

    /// Every name, Core Image name and factory name, in any case, finds the filter a table
    /// built from `all` finds (later filters winning a shared name).
    @Test func everyNameFindsTheSameFilterAsATableOfAll() throws {
        var expected: [String: String] = [:]
        for descriptor in FilterRegistry.all {
            expected[descriptor.name.lowercased()] = descriptor.name
            if let ci = descriptor.coreImageName {
                expected[ci.lowercased()] = descriptor.name
                if let factory = descriptor.factoryName { expected[factory.lowercased()] = descriptor.name }
            }
        }
        #expect(expected.count > 2 * FilterRegistry.all.count)
        for (key, name) in expected {
            for spelling in [key, key.uppercased(), key.prefix(1).uppercased() + key.dropFirst()] {
                #expect(FilterRegistry.descriptor(named: spelling)?.name == name, "\(spelling)")
            }
        }
        #expect(FilterRegistry.descriptor(named: "noSuchFilter") == nil && FilterRegistry.descriptor(named: "") == nil)
    }
}
