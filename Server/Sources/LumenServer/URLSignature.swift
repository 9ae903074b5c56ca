import Foundation

/// imgproxy's URL signature: HMAC-SHA256 with a key over the salt followed by the path
/// after the signature segment (with its leading `/`, as sent: not percent-decoded), the
/// first `bytes` bytes of the digest in URL-safe Base64 without padding. Any of several
/// key/salt pairs may have signed. Compared in constant time.
struct URLSignature: Sendable {
    struct Pair: Sendable { let key: [UInt8]; let salt: [UInt8] }
    let pairs: [Pair]
    let bytes: Int

    init(_ configuration: ServiceConfiguration) {
        pairs = configuration.signingKeys.compactMap { pair in
            guard let key = Hex.bytes(pair.key), let salt = Hex.bytes(pair.salt) else { return nil }
            return Pair(key: key, salt: salt)
        }
        bytes = configuration.signatureBytes
    }

    /// The signature of `path` with the first pair (what a client computes).
    func sign(_ path: Substring) -> String {
        guard let pair = pairs.first else { return "" }
        return Base64URL.encode(Array(mac(pair, path).prefix(bytes)))
    }

    /// Whether `signature` signs `path` under one of the pairs.
    func isValid(_ signature: Substring, for path: Substring) -> Bool {
        // Only the canonical spelling: Base64's last character has spare bits, and a decoder
        // ignores them, so four spellings would decode to one signature.
        guard let given = Base64URL.decode(signature), given.count == bytes, Base64URL.encode(given) == signature else { return false }
        var valid = false
        for pair in pairs {
            // Every pair is tried, so the time does not say which one matched.
            let expected = Array(mac(pair, path).prefix(bytes))
            var difference: UInt8 = 0
            for i in 0..<bytes { difference |= expected[i] ^ given[i] }
            valid = valid || difference == 0
        }
        return valid
    }

    private func mac(_ pair: Pair, _ path: Substring) -> [UInt8] {
        HMACSHA256.code(key: pair.key, message: pair.salt + Array(path.utf8))
    }
}

/// URL-safe Base64 without padding (RFC 4648 §5), as imgproxy writes signatures and sources.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95 })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
