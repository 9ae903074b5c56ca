import ArgumentParser
struct Transition: ParsableCommand { func run() throws {} }
