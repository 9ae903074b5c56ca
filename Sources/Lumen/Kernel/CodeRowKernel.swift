/// A kernel that can write its output as 8-bit codes straight from its one input's 8-bit
/// codes, when that input is an opaque 8-bit RGB file decoded through per-channel tables
/// (`RowSource.decodeTables`) and the output is that file's extent. The codes are exactly
/// those the working-space path writes: the input expanded through the tables, the
/// kernel's own float arithmetic, then `PixelConversion.encode8`. A file written through
/// such a kernel skips the tiles and the working space (`RenderContext.directCopy`), as a
/// file written unchanged does: a few bands of rows in memory, no 16-byte pixels.
protocol CodeRowKernel: ImageKernel {
    /// The writer of a `width × height` picture's rows from an input decoded through
    /// `tables`, or nil when this kernel's parameters have no exact code form there.
    /// `level` is for tests; renders use `.current`.
    func codeRowStream(tables: ChannelTables, width: Int, height: Int, level: InstructionSet) -> (any CodeRowStream)?
}

/// Writes a picture's output rows as 8-bit RGB codes (3 bytes a pixel) from its input's,
/// fed one row at a time from the top (file order). Not shared between threads: the
/// direct copy feeds it from its pipeline's one stage thread.
protocol CodeRowStream: AnyObject {
    /// Rows below its own that an output row reads: output row r is written when input
    /// row r + lag is fed (0 for a kernel that reads only its own row).
    var lag: Int { get }
    /// Bytes it keeps from row to row (for the memory limit).
    var heldBytes: Int { get }
    /// Takes the next input row (nil past the bottom, fed `lag` times to write the last
    /// rows) and, when `output` is given, writes the output row it completes there.
    /// `input` and `output` may be the same row.
    func feed(_ input: UnsafePointer<UInt8>?, writing output: UnsafeMutablePointer<UInt8>?)
    /// For a stream whose output rows read only their own input row and which keeps
    /// nothing (lag 0): file row `row`'s output from its input, in any order, from any
    /// thread. Nil for the others, which must be fed in order.
    var independentRows: CodeRowAt? { get }
}

/// Writes file row `row`'s output (3 bytes a pixel) from its input; they may be the same row.
typealias CodeRowAt = @Sendable (_ row: Int, _ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>) -> Void

extension CodeRowStream {
    var independentRows: CodeRowAt? { nil }
}

/// Writes `count` RGB pixels (3 bytes each) of output row `y`, from column `x` (pixel
/// coordinates of the working space, y up), from the input's codes at the same place.
/// `input` and `output` may be the same row.
typealias CodeRowWriter = @Sendable (_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
                                     _ count: Int, _ x: Int, _ y: Int) -> Void

/// The stream of a kernel whose output row reads only the input row at the same place.
final class CodeRowWriterStream: CodeRowStream {
    let lag = 0, heldBytes = 0
    /// File row `row` of the picture's whole extent: y = height − 1 − row.
    let independentRows: CodeRowAt?
    private let rowAt: CodeRowAt
    private var row = 0  // the file row fed next

    init(_ writer: @escaping CodeRowWriter, width: Int, height: Int) {
        rowAt = { row, input, output in writer(input, output, width, 0, height - 1 - row) }
        independentRows = rowAt
    }

    func feed(_ input: UnsafePointer<UInt8>?, writing output: UnsafeMutablePointer<UInt8>?) {
        defer { row += 1 }
        guard let input, let output else { return }
        rowAt(row, input, output)
    }
}
