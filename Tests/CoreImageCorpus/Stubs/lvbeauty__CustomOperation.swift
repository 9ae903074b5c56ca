// CustomOperation's own type that Extention.swift uses (Model/Model.swift).
import LumenCoreImage
import CorpusStubs

enum FilterType: String {
    case Chrome = "CIPhotoEffectChrome"
    case Mono = "CIPhotoEffectMono"
}
