import Foundation
import Lumen

/// HDR gain maps with Core Image's spellings: the map as an auxiliary image
/// (`.auxiliaryHDRGainMap`) and `applyingGainMap(_:)` / `applyingGainMap(_:headroom:)`.
extension CIImage {
    /// The gain map of an Ultra HDR JPEG's bytes, turned upright with the file when
    /// `.applyOrientationProperty` is true; nil without one.
    convenience init?(gainMapOf data: Data, options: [CIImageOption: Any]?) {
        guard let parameters = try? GainMap.read(from: data), var map = try? parameters.image() else { return nil }
        if (options?[.applyOrientationProperty] as? Bool) == true,
           let orientation = (try? ImageFile.header(of: data))?.orientation, orientation != 1 {
            map = map.oriented(orientation)
        }
        self.init(lumenImage: map)
        gainMapParameters = parameters
        contentHeadroom = 1
    }

    /// The image raised to its HDR rendition by `gainmap` (loaded with
    /// `.auxiliaryHDRGainMap`), at the map's full headroom. The image itself when
    /// `gainmap` is not a gain map.
    public func applyingGainMap(_ gainmap: CIImage) -> CIImage {
        applying(gainmap, headroom: nil)
    }

    /// The image raised towards its HDR rendition for a display of `headroom` (1: the SDR
    /// image; the map's own headroom or more: the full HDR rendition; log-linear between).
    public func applyingGainMap(_ gainmap: CIImage, headroom: Float) -> CIImage {
        applying(gainmap, headroom: Double(headroom))
    }

    private func applying(_ gainmap: CIImage, headroom: Double?) -> CIImage {
        guard let parameters = gainmap.gainMapParameters,
              let raised = try? lumenImage.applyingGainMap(gainmap.lumenImage, parameters: parameters, headroom: headroom)
        else { return self }
        let result = CIImage(lumenImage: raised, properties: properties, url: url, colorSpace: colorSpace)
        result.contentHeadroom = Float(max(1, min(parameters.headroom, headroom ?? parameters.headroom)))
        return result
    }
}
