#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* Only the OpenSSL 3 API: deprecated symbols (EC_KEY_*, HMAC_CTX_*, ...) become compile errors. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

/// `BIO_get_mem_data` is a macro over `BIO_ctrl`, which Swift cannot import.
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

#endif
