/// A kernel that can write its output as 8-bit codes straight from its one input's 8-bit
/// codes, a row at a time, when that input is an opaque 8-bit RGB file decoded through
/// per-channel tables (`RowSource.decodeTables`). The codes are exactly those the
/// working-space path writes: the input expanded through the tables, the kernel's own
/// float arithmetic, then `PixelConversion.encode8`. A file written through such a kernel
/// skips the tiles and the working space (`RenderContext.directCopy`), as a file written
/// unchanged does: one band of rows in memory, no 16-byte pixels.
protocol CodeRowKernel: ImageKernel {
    /// The row writer for an input decoded through `tables`, or nil when this kernel's
    /// parameters have no exact row form. `level` is for tests; renders use `.current`.
    func codeRows(tables: ChannelTables, level: InstructionSet) -> CodeRowWriter?
}

/// Writes `count` RGB pixels (3 bytes each) of output row `y`, from column `x` (pixel
/// coordinates of the working space, y up), from the input's codes at the same place.
/// `input` and `output` may be the same row.
typealias CodeRowWriter = @Sendable (_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
                                     _ count: Int, _ x: Int, _ y: Int) -> Void
