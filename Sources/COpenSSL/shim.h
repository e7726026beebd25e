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
#include <openssl/x509v3.h>

/* ECDSA nonce precomputation (see ECDSANoncePool.swift). OpenSSL 3 has no provider-level way to
 * split a signature into the costly nonce part (k⁻¹ and r = x(k·G), independent of the message)
 * and the cheap per-message part, so these four legacy entry points, which OPENSSL_NO_DEPRECATED
 * hides (with the EC_KEY type), are declared here as libcrypto 3 exports them. Nothing else of the legacy API is used. */
typedef struct ec_key_st EC_KEY;
EC_KEY *EVP_PKEY_get1_EC_KEY(EVP_PKEY *pkey);
void EC_KEY_free(EC_KEY *key);
int ECDSA_sign_setup(EC_KEY *eckey, BN_CTX *ctx, BIGNUM **kinv, BIGNUM **rp);
ECDSA_SIG *ECDSA_do_sign_ex(const unsigned char *dgst, int dgstlen, const BIGNUM *kinv, const BIGNUM *rp,
                            EC_KEY *eckey);

/// `BIO_get_mem_data` is a macro over `BIO_ctrl`, which Swift cannot import.
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

#endif
