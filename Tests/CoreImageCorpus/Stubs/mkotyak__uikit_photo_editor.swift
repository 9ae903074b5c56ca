// uikit_photo_editor's own type that UIImage+Filter.swift uses (Models/Filter.swift).
import LumenCoreImage
import CorpusStubs

enum Filter: String, CaseIterable {
    case original
    case mono
    var name: String? { self == .mono ? "CIPhotoEffectMono" : nil }
}
