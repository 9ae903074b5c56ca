/// Lane-wise maximum and minimum that compile to compares and a blend. The standard
/// library's `pointwiseMax`/`pointwiseMin` (and `clamped(lowerBound:upperBound:)` on SIMD
/// vectors) take each lane through `Scalar.maximum`/`minimum` with branches; morphology
/// spent 80 % of its time there. Same results (signalling NaNs aside): where one operand is
/// NaN the other is returned, and of two equal zeros `lanewiseMax(a, b)` returns b's, as
/// `Float.maximum` does (`a > b || b.isNaN ? a : b`).
@inline(__always)
func lanewiseMax<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint {
    b.replacing(with: a, where: (a .> b) .| (b .!= b))
}

/// `Scalar.minimum` per lane (`a <= b || b.isNaN ? a : b`), without branches.
@inline(__always)
func lanewiseMin<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar: FloatingPoint {
    b.replacing(with: a, where: (a .<= b) .| (b .!= b))
}

extension SIMD where Scalar: FloatingPoint {
    /// `clamped(lowerBound:upperBound:)` without branches (same results).
    @inline(__always)
    func lanewiseClamped(_ lower: Self, _ upper: Self) -> Self { lanewiseMin(upper, lanewiseMax(lower, self)) }
}
