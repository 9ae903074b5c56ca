/// A value that can be handed to a custom kernel's `apply(…arguments:)`: an image
/// (which becomes an input the kernel samples) or a number, vector or colour (which
/// becomes part of the kernel's identity and reaches the kernel function as a value).
public protocol KernelArgument {
    /// The argument as a filter value: `.image` for images, otherwise the value itself.
    var kernelArgument: FilterValue { get }
}

extension Image: KernelArgument {
    /// An input the kernel samples.
    public var kernelArgument: FilterValue { .image(self) }
}
extension Double: KernelArgument {
    /// A number.
    public var kernelArgument: FilterValue { .number(self) }
}
extension Float: KernelArgument {
    /// A number (widened to Double).
    public var kernelArgument: FilterValue { .number(Double(self)) }
}
extension Int: KernelArgument {
    /// A number (as Double).
    public var kernelArgument: FilterValue { .number(Double(self)) }
}
extension Point: KernelArgument {
    /// A vector `[x, y]`.
    public var kernelArgument: FilterValue { .vector([x, y]) }
}
extension Rect: KernelArgument {
    /// A vector `[x, y, width, height]`.
    public var kernelArgument: FilterValue { .vector([x, y, width, height]) }
}
extension Color: KernelArgument {
    /// A colour (the kernel reads it in the working space).
    public var kernelArgument: FilterValue { .color(self) }
}
extension AffineTransform: KernelArgument {
    /// A transform.
    public var kernelArgument: FilterValue { .transform(self) }
}
extension FilterValue: KernelArgument {
    /// Itself.
    public var kernelArgument: FilterValue { self }
}
extension Array: KernelArgument where Element == Double {
    /// A vector of the array's numbers.
    public var kernelArgument: FilterValue { .vector(self) }
}

/// The non-image arguments of a custom kernel, in the order given (images left out),
/// read by index inside the kernel function.
public struct KernelValues: Hashable, Sendable {
    let values: [FilterValue]

    /// How many values there are.
    public var count: Int { values.count }

    /// Value `index` as a number (0 when it is not one).
    public subscript(index: Int) -> Double {
        if case let .number(v) = values[index] { return v }
        return 0
    }

    /// Value `index` as a vector (a number gives one component; a colour its linear,
    /// premultiplied working-space components).
    public func vector(_ index: Int) -> [Double] {
        switch values[index] {
        case let .vector(v): return v
        case let .number(v): return [v]
        case let .color(c): let w = c.working; return [Double(w.x), Double(w.y), Double(w.z), Double(w.w)]
        case let .transform(t): return [t.a, t.b, t.c, t.d, t.tx, t.ty]
        case .image, .string, .data: return []
        }
    }

    /// Value `index` as a point (the first two components of a vector).
    public func point(_ index: Int) -> SIMD2<Double> {
        let v = vector(index)
        return SIMD2(v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0)
    }

    /// Value `index` as a working-space colour (linear, premultiplied).
    public func color(_ index: Int) -> SIMD4<Float> {
        if case let .color(c) = values[index] { return c.working }
        let v = vector(index)
        return SIMD4((0..<4).map { $0 < v.count ? Float(v[$0]) : ($0 == 3 ? 1 : 0) })
    }
}

/// Splits custom-kernel arguments into input images and values.
struct SplitArguments {
    let images: [Image]
    let values: KernelValues
    /// For each argument, whether it was an image (the order matters to identity).
    let layout: [Bool]

    init(_ arguments: [any KernelArgument]) {
        var images: [Image] = [], values: [FilterValue] = [], layout: [Bool] = []
        for argument in arguments {
            if case let .image(image) = argument.kernelArgument {
                images.append(image)
                layout.append(true)
            } else {
                values.append(argument.kernelArgument)
                layout.append(false)
            }
        }
        self.images = images
        self.values = KernelValues(values: values)
        self.layout = layout
    }
}
