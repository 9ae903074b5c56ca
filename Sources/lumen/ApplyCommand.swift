import ArgumentParser
struct Apply: ParsableCommand { func run() throws {} }
