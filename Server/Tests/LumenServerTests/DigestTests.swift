import Foundation
import Testing
@testable import LumenServer

/// SHA-256 and HMAC-SHA256 (OpenSSL's, through Digests.swift) against the standards' own
/// test vectors, and digests written as hex the way the standards print them.
@Suite struct DigestTests {
    /// FIPS 180-2's examples: "abc", the two-block message, and the empty message.
    @Test func sha256GivesTheStandardsDigests() {
        let cases = [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ]
        for (message, digest) in cases {
            #expect(Hex.string(SHA256.hash(Data(message.utf8))) == digest, "\(message)")
            #expect(Hex.string(SHA256.hash(Array(message.utf8))) == digest, "\(message) as bytes")
        }
        let digest = Hex.string(SHA256.hash(Data("abc".utf8)))
        #expect(Hex.bytes(digest) == SHA256.hash(Data("abc".utf8)))
        #expect(Hex.string([0x00, 0x0f, 0xf0, 0xff]) == "000ff0ff" && Hex.string([UInt8]()) == "")
    }

    /// RFC 4231's HMAC-SHA-256 test cases 1–4, 6 and 7 (6 and 7: a 131-byte key, longer
    /// than SHA-256's block, which HMAC hashes first; case 5 checks only a truncated code).
    @Test func hmacGivesRFC4231sCodes() {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let cases: [(key: [UInt8], message: [UInt8], code: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), bytes("Hi There"),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (bytes("Jefe"), bytes("what do ya want for nothing?"),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            (longKey, bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            (longKey, bytes("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (number, c) in cases.enumerated() {
            #expect(Hex.string(HMACSHA256.code(key: c.key, message: c.message)) == c.code, "case \(number)")
        }
        // An empty message (Python's hmac gives the same code).
        #expect(Hex.string(HMACSHA256.code(key: bytes("key"), message: [])) == "5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0")
        // An empty key is a block of zeros (RFC 2104 pads keys with zeros), so both agree.
        #expect(HMACSHA256.code(key: [], message: bytes("x")) == HMACSHA256.code(key: [0, 0], message: bytes("x")))
    }
}
