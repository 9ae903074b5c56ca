// What Lumen's modules take from the platform, in one place: on Linux, FoundationEssentials
// (URL, Data, FileManager, JSON coding, ProcessInfo) with Dispatch and the C library, not the
// whole of Foundation, whose internationalisation (ICU) the `lumen` binary would otherwise
// carry and map at every start; on Apple platforms, Foundation.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
@_exported import Dispatch
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif
#else
@_exported import Foundation
#endif
