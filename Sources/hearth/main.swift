import HearthServer

#if canImport(Glibc)
    import Glibc
#endif

// A closed pipe (stdout read by a process that went away, a client that hung up) must be an
// error on that write, not the end of the server.
signal(SIGPIPE, SIG_IGN)
exit(HearthCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfoEnvironment.current))
