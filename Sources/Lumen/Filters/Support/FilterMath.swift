// Small formulas filters of several categories share. Anything used by one category stays
// in that category's folder.

/// Rec. 709 luma weights for linear RGB (alpha weighted 0).
let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

/// Linear interpolation of premultiplied working-space colors: a at t = 0, b at t = 1.
@inline(__always)
func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> { a + (b - a) * t }

/// GLSL's smoothstep: 0 below e0, 1 above e1, the cubic 3t² − 2t³ between.
@inline(__always)
func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}

/// A deterministic hash of integer cell coordinates to 0..<1 (patterned generators,
/// gradients and transitions).
@inline(__always)
func cellNoise(_ i: Int, _ j: Int) -> Float {
    var h = UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(j)) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= h >> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return Float(h >> 40) / Float(1 << 24)
}
