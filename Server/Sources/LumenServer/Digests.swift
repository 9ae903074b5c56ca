import COpenSSLCrypto
import Foundation

// SHA-256 and HMAC-SHA256 from OpenSSL's libcrypto, which every Debian machine has. The
// service used swift-crypto, whose own copy of BoringSSL (and its Swift layers) took about
// a minute of the server's four-minute dependency build on two cores for these two
// functions; NIOSSL's copy of BoringSSL, which the HTTP client needs, is another build.

/// SHA-256 (FIPS 180-4).
enum SHA256 {
    /// The 32-byte digest of `bytes`.
    static func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(input.baseAddress, input.count, $0.baseAddress, &length, EVP_sha256(), nil) }
        }
        // Fails only when OpenSSL cannot allocate its context: nothing a caller could mend.
        precondition(status == 1 && length == 32, "OpenSSL's SHA-256 failed")
        return digest
    }
}

/// HMAC-SHA256 (RFC 2104).
enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key` (a key of any length).
    static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        // RFC 2104's first step, done here: the key as one 64-byte block (hashed when longer,
        // padded with zeros when shorter), so OpenSSL never sees an empty or outsized key.
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var code = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = block.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { message in
                code.withUnsafeMutableBufferPointer { HMAC(EVP_sha256(), key.baseAddress, 64, message.baseAddress, message.count, $0.baseAddress, &length) }
            }
        }
        precondition(result != nil && length == 32, "OpenSSL's HMAC-SHA256 failed")
        return code
    }
}
