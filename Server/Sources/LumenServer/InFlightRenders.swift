import Foundation

/// Requests for the same output while it is being rendered wait for that render instead of
/// starting their own (no stampede when a popular image's cached output is missing).
actor InFlightRenders {
    private var running: [String: Task<Data, Error>] = [:]

    func value(for key: String, _ render: @escaping @Sendable () async throws -> Data) async throws -> Data {
        if let task = running[key] { return try await task.value }
        let task = Task { try await render() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
