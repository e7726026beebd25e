/// Compares two byte sequences in time that depends only on their lengths, never on where they differ.
///
/// Use it for MACs, token hashes and anything else an attacker could probe byte by byte. Different lengths
/// compare unequal, but the content loop still runs over the common prefix, so the result is not decided
/// early by the first differing byte.
public func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    var difference: UInt8 = a.count == b.count ? 0 : 1
    for (x, y) in zip(a, b) {
        difference |= x ^ y
    }
    return difference == 0
}
