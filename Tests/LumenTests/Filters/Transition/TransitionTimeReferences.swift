import Foundation
import Testing
@testable import Lumen

/// Transitions: exactly the image at time 0 and the target at time 1, and the share of
/// the picture that already shows the target grows with time.
enum TransitionReferences {
    typealias F = FilterReferenceTests
    static let names = ["flashTransition", "swipeTransition", "barsSwipeTransition", "copyMachineTransition", "modTransition",
                        "disintegrateWithMaskTransition", "rippleTransition", "pageCurlTransition", "accordionFoldTransition"]

    static var all: [String: FilterReferenceTests.Check] {
        var checks: [String: FilterReferenceTests.Check] = [:]
        for name in names {
            checks[name] = {
                let source = Image(color: Color(red: 1, green: 0, blue: 0)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
                let target = Image(color: Color(red: 0, green: 0, blue: 1)).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
                var values: [String: FilterValue] = ["image": .image(source), "targetImage": .image(target),
                                                     "extent": .vector([0, 0, 40, 30]), "center": .vector([20, 15])]
                let descriptor = FilterRegistry.descriptor(named: name)!
                values = values.filter { key, _ in descriptor.parameter(key) != nil }
                if name.hasPrefix("disintegrate") {
                    values["maskImage"] = .image(try F.apply("linearGradient", ["point0": .vector([0, 0]), "point1": .vector([40, 0])]))
                }
                if name == "modTransition" { values["radius"] = .number(6); values["compression"] = .number(10) }
                if name == "swipeTransition" { values["width"] = .number(10) }
                if name == "rippleTransition" { values["width"] = .number(8); values["scale"] = .number(4) }
                if name == "pageCurlTransition" { values["radius"] = .number(4) }
                values["time"] = .number(0)
                #expect(try descriptor.apply(values) == source)
                values["time"] = .number(1)
                #expect(try descriptor.apply(values) == target)
                var previous = -1.0
                // The flash covers the picture until its fade starts (t = 0.85).
                let late = name == "flashTransition" ? 0.97 : 0.9
                for t in [0.1, 0.5, late] {
                    values["time"] = .number(t)
                    let out = try F.pixels(try descriptor.apply(values), Rect(x: 0, y: 0, width: 40, height: 30))
                    var share = 0.0
                    for y in 0..<30 { for x in 0..<40 { let p = F.value(out, x: x, y: y); if p.z > p.x { share += 1 } } }
                    share /= 1200
                    #expect(share >= previous, "\(name): target share \(share) at t = \(t) after \(previous)")
                    previous = share
                }
                #expect(previous > 0.3, "\(name) shows the target by t = \(late)")
            }
        }
        return checks
    }
}
