#include "CLCMS.h"
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A conversion to sRGB. Gray ones are a table of every input code's output, made with an
/// unoptimised transform: Little CMS's optimised gray-to-gray curve is interpolated so
/// coarsely near black that a linear gray profile's code 1 came out 6 instead of 13 (found
/// on JPEG XL files whose decoded profile is linear gray).
struct CLCMS_Transform {
    cmsHTRANSFORM transform;
    int gray_depth;           // 8 or 16 for a gray table, 0 otherwise
    int gray_alpha;           // the gray pixels carry alpha
    void *table;              // gray: 256 uint8 or 65536 uint16 outputs
};

int CLCMS_describe(const uint8_t *icc, size_t length, char *text, size_t textLength) {
    text[0] = 0;
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (!profile) return -1;
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", text, (cmsUInt32Number)textLength);
    cmsCloseProfile(profile);
    return 0;
}

static cmsUInt32Number format(CLCMS_Layout layout, int depth) {
    int bytes = depth == 16 ? 2 : 1;
    switch (layout) {
    case CLCMS_GRAY: return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(bytes);
    case CLCMS_GRAY_ALPHA: return COLORSPACE_SH(PT_GRAY) | EXTRA_SH(1) | CHANNELS_SH(1) | BYTES_SH(bytes);
    case CLCMS_RGB: return COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(bytes);
    case CLCMS_RGBA: return COLORSPACE_SH(PT_RGB) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(bytes);
    case CLCMS_CMYK: return COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(bytes);
    case CLCMS_CMYK_INVERTED: return COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(bytes) | FLAVOR_SH(1);
    case CLCMS_CMYK_ALPHA: return COLORSPACE_SH(PT_CMYK) | EXTRA_SH(1) | CHANNELS_SH(4) | BYTES_SH(bytes);
    }
    return 0;
}

CLCMS_Transform *CLCMS_create_to_srgb(const uint8_t *icc, size_t length, CLCMS_Layout layout, int depth,
                                      char *message, size_t messageLength) {
    cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (!source) { snprintf(message, messageLength, "the embedded ICC profile is unreadable"); return NULL; }
    int gray = layout == CLCMS_GRAY || layout == CLCMS_GRAY_ALPHA;
    cmsHPROFILE target;
    if (gray) {
        // sRGB's tone curve: Y = ((X + 0.055)/1.055)^2.4 above 0.04045, X/12.92 below.
        cmsFloat64Number p[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, p);
        target = cmsCreateGrayProfile(cmsD50_xyY(), curve);
        cmsFreeToneCurve(curve);
    } else {
        target = cmsCreate_sRGBProfile();
    }
    int alpha = layout == CLCMS_RGBA || layout == CLCMS_GRAY_ALPHA || layout == CLCMS_CMYK_ALPHA;
    cmsUInt32Number out = gray ? format(layout, depth) : format(alpha ? CLCMS_RGBA : CLCMS_RGB, depth);
    cmsUInt32Number flags = cmsFLAGS_BLACKPOINTCOMPENSATION | (alpha ? cmsFLAGS_COPY_ALPHA : 0);
    if (gray) {
        // Gray: every code through the exact pipeline once, into a table.
        flags = cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE;
        cmsHTRANSFORM exact = cmsCreateTransform(source, format(CLCMS_GRAY, depth), target, format(CLCMS_GRAY, depth),
                                                 INTENT_RELATIVE_COLORIMETRIC, flags);
        cmsCloseProfile(source);
        cmsCloseProfile(target);
        if (!exact) { snprintf(message, messageLength, "the embedded ICC profile does not fit this image's colors"); return NULL; }
        size_t codes = depth == 16 ? 65536 : 256, bytes = depth == 16 ? 2 : 1;
        CLCMS_Transform *result = calloc(1, sizeof *result);
        void *inputs = malloc(codes * bytes);
        if (result) result->table = malloc(codes * bytes);
        if (!result || !inputs || !result->table) {
            free(inputs);
            if (result) free(result->table);
            free(result);
            cmsDeleteTransform(exact);
            return NULL;
        }
        for (size_t i = 0; i < codes; i++) {
            if (depth == 16) ((uint16_t *)inputs)[i] = (uint16_t)i; else ((uint8_t *)inputs)[i] = (uint8_t)i;
        }
        cmsDoTransform(exact, inputs, result->table, (cmsUInt32Number)codes);
        free(inputs);
        cmsDeleteTransform(exact);
        result->gray_depth = depth == 16 ? 16 : 8;
        result->gray_alpha = alpha;
        return result;
    }
    cmsHTRANSFORM transform = cmsCreateTransform(source, format(layout, depth), target, out, INTENT_RELATIVE_COLORIMETRIC, flags);
    cmsCloseProfile(source);
    cmsCloseProfile(target);
    if (!transform) { snprintf(message, messageLength, "the embedded ICC profile does not fit this image's colors"); return NULL; }
    CLCMS_Transform *result = calloc(1, sizeof *result);
    if (!result) { cmsDeleteTransform(transform); return NULL; }
    result->transform = transform;
    return result;
}

void CLCMS_apply(CLCMS_Transform *transform, const void *input, void *output, size_t pixels) {
    if (transform->gray_depth) {
        size_t step = transform->gray_alpha ? 2 : 1;
        if (transform->gray_depth == 16) {
            const uint16_t *in = input, *table = transform->table;
            uint16_t *out = output;
            for (size_t i = 0; i < pixels; i++) {
                out[i * step] = table[in[i * step]];
                if (step == 2) out[i * 2 + 1] = in[i * 2 + 1];
            }
        } else {
            const uint8_t *in = input, *table = transform->table;
            uint8_t *out = output;
            for (size_t i = 0; i < pixels; i++) {
                out[i * step] = table[in[i * step]];
                if (step == 2) out[i * 2 + 1] = in[i * 2 + 1];
            }
        }
        return;
    }
    cmsDoTransform(transform->transform, input, output, (cmsUInt32Number)pixels);
}

void CLCMS_destroy(CLCMS_Transform *transform) {
    if (!transform) return;
    if (transform->transform) cmsDeleteTransform(transform->transform);
    free(transform->table);
    free(transform);
}

/// The colorants (D50-adapted, as ICC stores them) of an RGB matrix/TRC profile as a
/// matrix whose columns are red, green and blue XYZ.
static int colorant_matrix(cmsHPROFILE profile, double m[9]) {
    if (cmsGetColorSpace(profile) != cmsSigRgbData || !cmsIsMatrixShaper(profile)) return 0;
    cmsCIEXYZ *r = cmsReadTag(profile, cmsSigRedColorantTag);
    cmsCIEXYZ *g = cmsReadTag(profile, cmsSigGreenColorantTag);
    cmsCIEXYZ *b = cmsReadTag(profile, cmsSigBlueColorantTag);
    if (!r || !g || !b) return 0;
    double v[9] = {r->X, g->X, b->X, r->Y, g->Y, b->Y, r->Z, g->Z, b->Z};
    memcpy(m, v, sizeof v);
    return 1;
}

static int invert3(const double m[9], double out[9]) {
    double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (det == 0 || det != det) return 0;
    double r[9] = {(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
                   (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
                   (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det};
    memcpy(out, r, sizeof r);
    return 1;
}

int CLCMS_matrix_shaper(const uint8_t *icc, size_t length, double toSRGB[9], double offset[3]) {
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (!profile) return 0;
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    double source[9], target[9], inverse[9];
    // A profile with a lookup table for relative colorimetric input (A2B1, else A2B0) is
    // converted by its table, as Little CMS does: its matrix and curves are only a fallback.
    int ok = !cmsIsTag(profile, cmsSigAToB0Tag) && !cmsIsTag(profile, cmsSigAToB1Tag) && !cmsIsTag(profile, cmsSigDToB1Tag)
             && colorant_matrix(profile, source) && colorant_matrix(srgb, target) && invert3(target, inverse);
    for (int c = 0; ok && c < 3; c++) {
        static const cmsTagSignature tags[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
        if (!cmsReadTag(profile, tags[c])) ok = 0;
    }
    if (ok) {
        // Black-point compensation as Little CMS computes it (cmscnvrt.c): in XYZ, the map
        // with scale a and offset b per component that takes the profile's black point to
        // sRGB's (zero) and D50 to itself: X' = D50·(X − BP)/(D50 − BP).
        cmsCIEXYZ black = {0, 0, 0};
        const cmsCIEXYZ *white = cmsD50_XYZ();
        double d50[3] = {white->X, white->Y, white->Z}, scale[3] = {1, 1, 1}, shift[3] = {0, 0, 0};
        if (cmsDetectBlackPoint(&black, profile, INTENT_RELATIVE_COLORIMETRIC, 0)) {
            double bp[3] = {black.X, black.Y, black.Z};
            for (int c = 0; c < 3; c++) {
                if (bp[c] == 0 || !(d50[c] - bp[c] > 0)) continue;
                scale[c] = d50[c] / (d50[c] - bp[c]);
                shift[c] = -d50[c] * bp[c] / (d50[c] - bp[c]);
            }
        }
        // Profile RGB → XYZ(D50) → (compensated) → linear sRGB: the relative colorimetric path Little CMS takes.
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                toSRGB[3 * r + c] = 0;
                for (int k = 0; k < 3; k++) toSRGB[3 * r + c] += inverse[3 * r + k] * scale[k] * source[3 * k + c];
            }
            offset[r] = 0;
            for (int k = 0; k < 3; k++) offset[r] += inverse[3 * r + k] * shift[k];
        }
    }
    cmsCloseProfile(srgb);
    cmsCloseProfile(profile);
    return ok;
}

int CLCMS_curve_table(const uint8_t *icc, size_t length, int channel, int inverse, float *table, int count) {
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (!profile) return -1;
    static const cmsTagSignature tags[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    cmsToneCurve *curve = channel >= 0 && channel < 3 ? cmsReadTag(profile, tags[channel]) : NULL;
    // 4096 samples: Little CMS refuses more than 65535 for a sampled curve, and the inverse
    // is itself sampled again by the caller.
    cmsToneCurve *used = curve && inverse ? cmsReverseToneCurveEx(4096, curve) : curve;
    int status = used ? 0 : -1;
    for (int i = 0; used && i < count; i++) table[i] = cmsEvalToneCurveFloat(used, (cmsFloat32Number)i / (cmsFloat32Number)(count - 1));
    if (used && used != curve) cmsFreeToneCurve(used);
    cmsCloseProfile(profile);
    return status;
}

/// Saves `profile` into a malloc'ed buffer.
static uint8_t *save(cmsHPROFILE profile, const char *description, size_t *length) {
    *length = 0;
    if (!profile) return NULL;
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(mlu, "en", "US", description);
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, mlu);
    cmsMLUfree(mlu);
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (bytes = malloc(size))) {
        if (cmsSaveProfileToMem(profile, bytes, &size)) *length = size;
        else { free(bytes); bytes = NULL; }
    }
    cmsCloseProfile(profile);
    return bytes;
}

uint8_t *CLCMS_make_profile(int which, size_t *length) {
    if (which == 0) return save(cmsCreate_sRGBProfile(), "sRGB", length);
    // Display P3: DCI-P3 primaries, D65 white, the sRGB tone curve (as Apple's profile).
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
    cmsFloat64Number p[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, p);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return save(profile, "Display P3", length);
}

void CLCMS_free(void *bytes) { free(bytes); }

int CLCMS_to_lab(const uint8_t *icc, size_t length, const void *rgb, int depth, size_t pixels, double *lab) {
    cmsHPROFILE source = icc ? cmsOpenProfileFromMem(icc, (cmsUInt32Number)length) : cmsCreate_sRGBProfile();
    if (!source) return -1;
    cmsHPROFILE target = cmsCreateLab4Profile(NULL);
    cmsHTRANSFORM transform = cmsCreateTransform(source, format(CLCMS_RGB, depth), target, TYPE_Lab_DBL,
                                                 INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsCloseProfile(source);
    cmsCloseProfile(target);
    if (!transform) return -1;
    cmsDoTransform(transform, rgb, lab, (cmsUInt32Number)pixels);
    cmsDeleteTransform(transform);
    return 0;
}

double CLCMS_delta_e2000(const double *lab1, const double *lab2) {
    cmsCIELab a = {lab1[0], lab1[1], lab1[2]}, b = {lab2[0], lab2[1], lab2[2]};
    return cmsCIE2000DeltaE(&a, &b, 1, 1, 1);
}
