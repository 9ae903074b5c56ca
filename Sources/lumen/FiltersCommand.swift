import ArgumentParser
struct Filters: ParsableCommand { func run() throws {} }
