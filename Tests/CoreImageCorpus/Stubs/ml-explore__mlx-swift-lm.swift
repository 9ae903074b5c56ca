// MLXLMCommon / MLXVLM types that MediaProcessing.swift uses (declared elsewhere in mlx-swift-lm).
import LumenCoreImage
import CorpusStubs

public struct UserInput {
    public enum Image {
        case ciImage(CIImage)
        case url(URL)
        public func asCIImage() throws -> CIImage { fatalError("stub") }
    }
    public enum Video {
        case avAsset(AVAsset)
        case url(URL)
        case frames([VideoFrame])
    }
    public struct VideoFrame {
        public let image: Image
        public let timeStamp: CMTime
        public init(image: Image, timeStamp: CMTime) { self.image = image; self.timeStamp = timeStamp }
    }
    public struct VideoProcessing {
        public var targetFramesPerSecond: Double?
        public var targetFrames: Int?
        public init(targetFramesPerSecond: Double? = nil, targetFrames: Int? = nil) {
            self.targetFramesPerSecond = targetFramesPerSecond; self.targetFrames = targetFrames
        }
    }
    public struct Processing {
        public var resize: CGSize?
        public var video: VideoProcessing = .init()
    }
}

public enum VLMError: Error {
    case noVideoTrackFound
    case videoNotDecodable
}
