#if canImport(Security)
    import Foundation
    import Security

    /// ``SecureStorage`` in the Keychain: one generic-password item per key, readable after
    /// the device's first unlock and never synced to other devices. A write replaces the
    /// item's data in one `SecItemUpdate` (or adds the item), so a reader sees the old entry
    /// or the new one.
    ///
    /// Compiled only where the Security framework exists (Apple platforms); Linux builds use
    /// ``FileStorage``. Both pass `SecureStorageContractTests`.
    struct KeychainStorage: SecureStorage {
        /// The items' `kSecAttrService` (the SDK uses `dev.hearth.sdk`); each key is an account.
        let service: String

        func read(_ key: String) throws -> Data? {
            var query = baseQuery(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess: return result as? Data
            case errSecItemNotFound: return nil
            default: throw StorageError(description: "Keychain read of \(key) failed: OSStatus \(status).")
            }
        }

        func write(_ data: Data, for key: String) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            // A missing item is added instead.
            var status = SecItemUpdate(baseQuery(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = baseQuery(key).merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw StorageError(description: "Keychain write of \(key) failed: OSStatus \(status).")
            }
        }

        func remove(_ key: String) throws {
            let status = SecItemDelete(baseQuery(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw StorageError(description: "Keychain removal of \(key) failed: OSStatus \(status).")
            }
        }

        private func baseQuery(_ key: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
            ]
        }
    }
#endif
