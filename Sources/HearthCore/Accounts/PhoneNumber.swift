/// Phone numbers as the Admin SDKs set them on users: E.164 (`+`, a country code that does not
/// start with 0, at most 15 digits in all), stored as given, so one number has one spelling and
/// the store's unique index keeps it to one account per project. Hearth sends no SMS: a phone
/// number is an attribute admins manage and look users up by, never a way to sign in.
public enum PhoneNumber {
    /// The most digits E.164 allows.
    public static let maximumDigits = 15

    /// `text` when it is an E.164 number; `INVALID_PHONE_NUMBER` otherwise (spaces, dashes and
    /// brackets included: Firebase's own answer to a number it cannot read as E.164).
    public static func validated(_ text: String) throws(AuthError) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= maximumDigits + 1, bytes[0] == UInt8(ascii: "+"),
            bytes[1] != UInt8(ascii: "0"),
            bytes.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw AuthError.invalidPhoneNumber }
        return text
    }
}

extension AuthError {
    /// Firebase's words for a number that is not E.164.
    public static let invalidPhoneNumber = AuthError(.invalidPhoneNumber, "Invalid format.")
    public static let phoneNumberExists = AuthError(.phoneNumberExists)
    /// The answer to every phone sign-in method: Hearth sends no SMS.
    public static let phoneSignInNotAllowed = AuthError(
        .operationNotAllowed,
        "Phone sign-in is not available: Hearth sends no SMS."
    )
}
