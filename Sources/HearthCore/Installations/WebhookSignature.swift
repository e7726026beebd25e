import HearthBase
import HearthCrypto

/// The signature on every deletion webhook, in the `Hearth-Signature` header:
///
///     Hearth-Signature: t=1735689600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
///
/// `t` is the sending time in Unix seconds and `v1` the lower-case hex HMAC-SHA256, keyed
/// with the subscription's secret (its UTF-8 bytes), of `"<t>.<body>"` — the decimal `t`, a
/// dot, then the raw request body. A receiver recomputes the HMAC over the body it got,
/// compares in constant time, and rejects a `t` too far from its own clock (five minutes is
/// usual), so a captured request cannot be replayed later. The same event is sent again after
/// a failure with a new `t` and signature but the same `Hearth-Delivery-Id`, by which
/// receivers drop duplicates.
public enum WebhookSignature {
    public static let headerName = "Hearth-Signature"

    /// The header value for `body` sent at `timestamp` (seconds).
    public static func header(secret: [UInt8], timestamp: Int64, body: [UInt8]) -> String {
        "t=\(timestamp),v1=\(Hex.encode(code(secret: secret, timestamp: timestamp, body: body)))"
    }

    /// Whether `header` is a valid signature of `body` under `secret`, made within
    /// `toleranceSeconds` of `now` (seconds).
    public static func isValid(
        header: String,
        secret: [UInt8],
        body: [UInt8],
        now: Int64,
        toleranceSeconds: Int64 = 300
    ) -> Bool {
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].trimmingASCIIWhitespace() {
            case "t": timestamp = Int64(pair[1])
            case "v1": if let bytes = Hex.decode(pair[1]) { signatures.append(bytes) }
            default: continue
            }
        }
        guard let timestamp, abs(now - timestamp) <= toleranceSeconds else { return false }
        let expected = code(secret: secret, timestamp: timestamp, body: body)
        return signatures.contains { constantTimeEquals($0, expected) }
    }

    private static func code(secret: [UInt8], timestamp: Int64, body: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: secret, message: Array("\(timestamp).".utf8) + body)
    }
}
