import HearthServer

#if canImport(Glibc)
    import Glibc
#endif

exit(HearthCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfoEnvironment.current))
