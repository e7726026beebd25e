import CArgon2

extension Argon2id {
    /// Runs Argon2id (version 1.3) through libargon2's context API and returns `length` bytes of tag, or `nil`
    /// if libargon2 refuses the parameters or cannot allocate its memory.
    ///
    /// Lanes are computed on the calling thread (`threads = 1`): the tag is the same for any thread count,
    /// and a server that already keeps every core busy with requests gains nothing from libargon2 starting and
    /// joining threads on each sign-in.
    static func rawHash(
        password: UnsafeRawBufferPointer,
        salt: [UInt8],
        secret: [UInt8] = [],
        associatedData: [UInt8] = [],
        iterations: UInt32,
        memoryKiB: UInt32,
        parallelism: UInt32,
        length: Int
    ) -> [UInt8]? {
        guard password.count <= Int(UInt32.max), salt.count <= Int(UInt32.max), length > 0 else { return nil }
        var status: Int32 = ARGON2_OK.rawValue
        let threadMemory = Argon2Memory.current != nil
        let tag = [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
            salt.withUnsafeBufferPointer { salt in
                secret.withUnsafeBufferPointer { secret in
                    associatedData.withUnsafeBufferPointer { associatedData in
                        // libargon2 takes non-const pointers but only writes to them when asked to wipe inputs
                        // (ARGON2_FLAG_CLEAR_PASSWORD / _SECRET), which is not set here.
                        var context = argon2_context(
                            out: output.baseAddress,
                            outlen: UInt32(length),
                            pwd: UnsafeMutablePointer(
                                mutating: password.baseAddress?.assumingMemoryBound(to: UInt8.self)
                            ),
                            pwdlen: UInt32(password.count),
                            salt: UnsafeMutablePointer(mutating: salt.baseAddress),
                            saltlen: UInt32(salt.count),
                            secret: UnsafeMutablePointer(mutating: secret.baseAddress),
                            secretlen: UInt32(secret.count),
                            ad: UnsafeMutablePointer(mutating: associatedData.baseAddress),
                            adlen: UInt32(associatedData.count),
                            t_cost: iterations,
                            m_cost: memoryKiB,
                            lanes: parallelism,
                            threads: 1,
                            version: ARGON2_VERSION_13.rawValue,
                            allocate_cbk: threadMemory ? Argon2Memory.allocate : nil,
                            free_cbk: threadMemory ? Argon2Memory.keep : nil,
                            flags: 0  // ARGON2_DEFAULT_FLAGS (a UINT32_C macro Swift does not import)
                        )
                        status = argon2id_ctx(&context)
                    }
                }
            }
            initialized = status == ARGON2_OK.rawValue ? length : 0
        }
        return status == ARGON2_OK.rawValue ? tag : nil
    }

    /// libargon2's text for an error code, for failure messages.
    static func errorMessage(_ code: Int32) -> String {
        String(cString: argon2_error_message(code))
    }
}
