import ArgumentParser
struct Explain: ParsableCommand { func run() throws {} }
