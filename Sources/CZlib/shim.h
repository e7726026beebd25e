#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/// `inflateInit2` is a macro (it passes the library version and struct size), which Swift
/// cannot import; `window_bits` 16 + 15 accepts the gzip wrapper.
static inline int CZlib_inflateInit2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
