import HearthServer

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(CTCMalloc)
    import CTCMalloc

    // Every allocation goes through tcmalloc (gperftools) instead of glibc's malloc. Much of
    // what one thread allocates another frees (the writer builds the rows and messages that
    // the syncer answers with and the delivery workers send), which glibc serves with arena
    // locks and consolidation and tcmalloc with per-thread caches: measured side by side,
    // sendOobCode +9 % and CPU per send -10 % in every thread, token generation unchanged.
    // Naming a function of the library keeps the linker from dropping it as unused.
    _ = tc_version(nil, nil, nil)
#endif

// A closed pipe (stdout read by a process that went away, a client that hung up) must be an
// error on that write, not the end of the server.
signal(SIGPIPE, SIG_IGN)
exit(HearthCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfoEnvironment.current))
