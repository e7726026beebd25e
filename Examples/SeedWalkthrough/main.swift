// The walkthrough runs in `Walkthrough.run()`, outside main.swift, so that its callbacks (the
// notification observer) are not main-actor code called from another thread.
await Walkthrough.main(arguments: CommandLine.arguments)
