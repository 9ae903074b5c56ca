import ArgumentParser

@main
struct LumenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lumen",
        abstract: "Core Image-style filter pipelines for JPEG, PNG and TIFF.",
        subcommands: [Apply.self, Batch.self, Render.self, Transition.self, Filters.self, Info.self, Convert.self, Explain.self, Assets.self]
    )
}
