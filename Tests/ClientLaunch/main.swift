// The launch runs in `ClientLaunch.main`, outside main.swift, so that nothing of it is
// main-actor code called from another thread.
await ClientLaunch.main(arguments: CommandLine.arguments)
