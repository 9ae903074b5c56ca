/// Every filter Lumen has, in one table that the library, the chain parser, the CLI
/// and the docs iterate over. A test checks that each filter file is listed here.
public enum FilterRegistry {
    /// Every filter Lumen has, in catalogue order; chains, `Filter(name:)`, `lumen filters` and the generated Core Image factories all read this list.
    public static let all: [FilterDescriptor] = [
        // Generators
        .constantColor, .checkerboard, .stripes, .random, .starShine, .sunbeams,
        .qrCode, .aztecCode, .pdf417Barcode, .code128Barcode, .textImageGenerator, .attributedTextImageGenerator,
        .roundedRectangle, .roundedRectangleStroke, .blurredRectangle, .meshGenerator, .lenticularHaloGenerator,
        // Gradients
        .linearGradient, .smoothLinearGradient, .radialGradient, .gaussianGradient, .hueSaturationValueGradient,
        // Compositing
        .sourceOver, .blendWithMask, .blendWithAlphaMask, .blendWithRedMask, .blendWithBlueMask,
        .sourceIn, .sourceOut, .sourceAtop, .additionCompositing, .multiplyCompositing, .maximumCompositing, .minimumCompositing,
        .multiplyBlendMode, .screenBlendMode, .overlayBlendMode, .darkenBlendMode, .lightenBlendMode, .colorDodgeBlendMode, .colorBurnBlendMode, .hardLightBlendMode, .softLightBlendMode, .differenceBlendMode, .exclusionBlendMode,
        .subtractBlendMode, .divideBlendMode, .linearBurnBlendMode, .linearDodgeBlendMode, .pinLightBlendMode, .vividLightBlendMode, .linearLightBlendMode, .hueBlendMode, .saturationBlendMode, .colorBlendMode, .luminosityBlendMode,
        // Effects
        .vignetteEffect, .vignette,
        // Blurs
        .gaussianBlur, .boxBlur, .discBlur, .motionBlur, .zoomBlur, .maskedVariableBlur,
        // Convolution and morphology
        .convolution3X3, .convolution5X5, .convolution7X7, .convolution9Horizontal, .convolution9Vertical,
        .convolutionRGB3X3, .convolutionRGB5X5, .convolutionRGB7X7, .convolutionRGB9Horizontal, .convolutionRGB9Vertical,
        .morphologyMaximum, .morphologyMinimum, .morphologyGradient, .morphologyRectangleMaximum, .morphologyRectangleMinimum,
        .medianFilter, .bokehBlur,
        // Stylize
        .pixellate, .hexagonalPixellate, .crystallize, .pointillize, .highlightShadowAdjust,
        .edges, .sobelGradients, .cannyEdgeDetector, .noiseReduction, .comicEffect, .edgeWork, .lineOverlay, .spotLight,
        .depthOfField, .heightFieldFromMask, .shadedMaterial, .gaborGradients, .distanceGradientFromRedMask,
        .saliencyMapFilter, .documentEnhancer,
        // Tiles
        .affineTile, .fourfoldTranslatedTile, .parallelogramTile, .fourfoldReflectedTile, .fourfoldRotatedTile, .eightfoldReflectedTile,
        .glideReflectedTile, .triangleTile, .sixfoldRotatedTile, .sixfoldReflectedTile, .twelvefoldReflectedTile, .kaleidoscope,
        .perspectiveTile, .opTile, .triangleKaleidoscope,
        // Halftones
        .dotScreen, .lineScreen, .hatchedScreen, .circularScreen, .cmykHalftone,
        // Sharpening and glow
        .unsharpMask, .sharpenLuminance, .bloom, .gloom,
        // Geometry
        .crop, .affineTransform, .lanczosScale, .bicubicScale, .affineClamp, .orientation, .straighten,
        .perspectiveTransform, .perspectiveTransformWithExtent, .perspectiveCorrection, .sampleNearest, .maximumScaleTransform, .guidedFilter, .edgePreserveUpsampleFilter,
        .perspectiveRotate, .keystoneCorrectionVertical, .keystoneCorrectionHorizontal, .keystoneCorrectionCombined,
        // Distortions
        .bumpDistortion, .bumpDistortionLinear, .pinchDistortion, .twirlDistortion, .vortexDistortion, .holeDistortion,
        .circleSplashDistortion, .circularWrap, .torusLensDistortion, .lightTunnel, .glassLozenge, .ninePartStretched, .ninePartTiled,
        .displacementDistortion, .glassDistortion, .clamp, .droste, .stretchCrop,
        // Color
        .colorMatrix, .colorControls, .exposureAdjust, .gammaAdjust, .hueAdjust, .sepiaTone, .colorInvert,
        .colorMonochrome, .vibrance, .temperatureAndTint, .toneCurve,
        .photoEffectMono, .photoEffectNoir, .photoEffectTonal, .photoEffectChrome, .photoEffectFade, .photoEffectInstant,
        .photoEffectProcess, .photoEffectTransfer,
        .falseColor, .maskToAlpha, .linearToSRGBToneCurve, .sRGBToneCurveToLinear, .minimumComponent, .maximumComponent,
        .colorClamp, .colorPosterize, .colorThreshold, .colorCrossPolynomial, .colorPolynomial,
        .colorCube, .colorCubeWithColorSpace, .colorCubesMixedWithMask,
        .labDeltaE, .colorAbsoluteDifference, .convertRGBtoLab, .convertLabToRGB, .mix, .thermal, .xRay, .whitePointAdjust, .dither,
        .depthToDisparity, .disparityToDepth, .colorMap, .colorCurves, .spotColor, .toneMapHeadroom, .colorThresholdOtsu,
        // Reductions
        .areaAverage, .areaMaximum, .areaMinimum, .areaMinMax, .areaMinMaxRed, .areaMaximumAlpha, .areaMinimumAlpha, .areaBoundsRed,
        .columnAverage, .rowAverage, .areaHistogram, .areaLogarithmicHistogram, .areaAlphaWeightedHistogram, .kMeans, .paletteCentroid, .palettize,
        .histogramDisplayFilter,
        // Transitions
        .dissolveTransition, .flashTransition, .swipeTransition, .barsSwipeTransition, .copyMachineTransition, .modTransition,
        .disintegrateWithMaskTransition, .rippleTransition, .pageCurlTransition, .accordionFoldTransition,
        .pageCurlWithShadowTransition,
    ]

    /// `text` with A–Z made a–z and every other byte kept.
    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Every name a filter answers to, lower-cased, to what builds its descriptor: its name,
    /// its Core Image name, and that without "ci" (and "filter"), its factory's name (whose
    /// acronym rules only change case). Made from the generated `names`, not from `all`: a
    /// process that names one filter, as a command line does, builds that descriptor alone,
    /// not the catalogue (0.3 ms). Later filters win a shared name, as in `all`.
    private static let index: [String: @Sendable () -> FilterDescriptor] = {
        var table = [String: @Sendable () -> FilterDescriptor](minimumCapacity: 3 * names.count)
        for entry in names {
            table[entry.name] = entry.make
            if let ci = entry.coreImageName {
                table[ci] = entry.make
                let factory = ci.dropFirst(2)
                table[String(factory.hasSuffix("filter") ? factory.dropLast(6) : factory)] = entry.make
            }
        }
        return table
    }()

    /// A filter by lowerCamel or Core Image name, case-insensitively (ASCII letters: every
    /// name is ASCII).
    public static func descriptor(named name: String) -> FilterDescriptor? { index[asciiLowercased(name)]?() }

    /// Names close to a misspelt one.
    public static func suggestions(for name: String) -> [String] {
        NameMatcher.nearest(to: name, in: all.map(\.name) + all.compactMap(\.coreImageName))
    }
}
