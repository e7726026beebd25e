/// Byte-level ASCII helpers for the scans of names, addresses and headers that compare or fold
/// text without going through `String`'s Unicode machinery.
public enum ASCII {
    /// `byte` lower-cased if it is an ASCII capital letter, else unchanged (bytes of UTF-8
    /// sequences included). Inlinable, so a scan in another module pays no call per byte.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
