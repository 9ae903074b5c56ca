// phixer's own helpers that the corpus files use (its logger and CGImage resizing).
import LumenCoreImage

struct Logger {
    func error(_ message: @autoclosure () -> Any) {}
    func debug(_ message: @autoclosure () -> Any) {}
    func verbose(_ message: @autoclosure () -> Any) {}
}
let log = Logger()

extension CGImage {
    func resize(_ size: CGSize) -> CGImage? { fatalError("stub") }
}
