import Foundation
import Testing
@testable import Lumen

// Reference checks for the filters in Sources/Lumen/Filters/Composite/: each filter's output against
// an independent formula written here in Double, or an independent tool. FilterReferenceTests
// runs them all (and checks that no filter has two).

extension ReferenceHelpers {
    static let compositeReferences: [String: Check] = [
        "mix": {
            let out = try F.apply("mix", ["image": .image(F.sample), "backgroundImage": .image(F.other), "amount": .number(0.3)])
            try F.expectEach(F.sample, F.other, { a, b, _, _ in b + (a - b) * 0.3 }, of: out)
        },
    ]
}

extension FilterReferenceTests {
    static let compositeReferences: [String: Check] = [
        "sourceOver": {
            try expectEach(sample, other, { s, d, _, _ in s + d * (1 - s.w) }, of: sample.composited(over: other))
        },
        "blendWithMask": { try checkBlend("blendWithMask", channel: 1) },
        "blendWithAlphaMask": { try checkBlend("blendWithAlphaMask", channel: 3) },
        "blendWithRedMask": { try checkBlend("blendWithRedMask", channel: 0) },
        "blendWithBlueMask": { try checkBlend("blendWithBlueMask", channel: 2) },
    ]
}
