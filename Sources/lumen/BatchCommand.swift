import ArgumentParser
struct Batch: ParsableCommand { func run() throws {} }
