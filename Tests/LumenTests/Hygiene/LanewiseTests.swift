import Foundation
import Testing
@testable import Lumen

/// `lanewiseMax`/`lanewiseMin` give what the standard library's pointwise forms give, NaN
/// and signed zeros included, and the library's sources use only them (the pointwise forms
/// branch per lane: morphology ran 4.8× slower through them).
@Suite struct LanewiseTests {
    @Test func sameResultsAsThePointwiseForms() {
        let values: [Float] = [-.infinity, -1, -0.0, 0, 0.5, 1, .infinity, .nan]
        for a in values {
            for b in values {
                let x = SIMD4<Float>(a, b, a, b), y = SIMD4<Float>(b, a, a, b)
                let pairs = [(lanewiseMax(x, y), pointwiseMax(x, y)), (lanewiseMin(x, y), pointwiseMin(x, y)),
                             (x.lanewiseClamped(.zero, SIMD4(repeating: 1)), x.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1)))]
                for (fast, reference) in pairs {
                    for i in 0..<4 {
                        #expect(fast[i].bitPattern == reference[i].bitPattern || (fast[i].isNaN && reference[i].isNaN), "\(a), \(b)")
                    }
                }
            }
        }
    }

    @Test func theLibraryUsesOnlyTheLanewiseForms() throws {
        let offenders = try SeamTests.sources().filter { path, text in
            path != "Core/Lanewise.swift" && text.split(separator: "\n").contains { line in
                !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                    && (line.contains("pointwiseMax(") || line.contains("pointwiseMin(") || line.contains(".clamped(lowerBound:"))
            }
        }.keys.sorted()
        #expect(offenders.isEmpty, "use lanewiseMax / lanewiseMin / lanewiseClamped in \(offenders)")
    }
}
