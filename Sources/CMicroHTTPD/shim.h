#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
/* malloc_trim and mallopt, which Glibc's Swift module leaves out: the server hands freed
   memory back to the system when idle. */
#include <malloc.h>

/// `MHD_start_daemon` is variadic, which Swift cannot call: this fixed-arity wrapper passes
/// the options as one `MHD_OPTION_ARRAY` terminated by `MHD_OPTION_END` in `options`.
static inline struct MHD_Daemon *CMicroHTTPD_start(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_cls,
    struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// `MHD_get_connection_info` is variadic; every query Hearth makes takes no extra argument.
static inline const union MHD_ConnectionInfo *CMicroHTTPD_connection_info(
    struct MHD_Connection *connection, enum MHD_ConnectionInfoType type)
{
    return MHD_get_connection_info(connection, type);
}

/// `MHD_get_daemon_info` is variadic; every query Hearth makes takes no extra argument.
static inline const union MHD_DaemonInfo *CMicroHTTPD_daemon_info(
    struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type)
{
    return MHD_get_daemon_info(daemon, type);
}

#endif
