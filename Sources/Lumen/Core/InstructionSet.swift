import CKernels
import LumenPlatform

/// The vector instructions Lumen's hottest loops (separable convolution and resampling)
/// use on this machine, chosen once per process.
///
/// The baseline is Lumen's Swift code, compiled for x86-64's SSE2 (or the platform's own
/// baseline elsewhere); AVX2 + FMA and AVX-512 versions live in the C target `CKernels`,
/// and run only when the processor and operating system support them. The environment
/// variable `LUMEN_SIMD` (`baseline`, `avx2` or `avx512`) asks for a lower level, for
/// comparisons and for testing the fallback; it never raises the level past the machine's.
/// Levels agree to within a fused multiply-add's rounding (see `VectorKernelTests`).
public enum InstructionSet: Int, Comparable, Sendable, CustomStringConvertible {
    /// Lumen's Swift loops, compiled for the platform's baseline (SSE2 on x86-64).
    case baseline = 0
    /// AVX2 with fused multiply-add (Haswell, Zen and later).
    case avx2 = 1
    /// AVX-512 F (with AVX2 and FMA), for the loops that have a version for it.
    case avx512 = 2

    /// The level in use: the machine's best, or `LUMEN_SIMD`'s if lower.
    public static let current: InstructionSet = {
        let best = machine
        guard let text = getenv("LUMEN_SIMD"), let asked = InstructionSet(name: String(cString: text)) else { return best }
        return min(asked, best)
    }()

    /// The best level this processor and operating system support.
    public static let machine = InstructionSet(rawValue: Int(CKernels_level())) ?? .baseline

    init?(name: String) {
        switch name.lowercased() {
        case "baseline", "sse2", "none", "0": self = .baseline
        case "avx2": self = .avx2
        case "avx512", "avx-512": self = .avx512
        default: return nil
        }
    }

    /// The name `LUMEN_SIMD` takes: `baseline`, `avx2` or `avx512`.
    public var description: String {
        switch self {
        case .baseline: "baseline"
        case .avx2: "avx2"
        case .avx512: "avx512"
        }
    }

    /// Lower levels come first: a level includes every one below it.
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    var cLevel: Int32 { Int32(rawValue) }
}
