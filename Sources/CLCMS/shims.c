#include "CLCMS.h"
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CLCMS_Transform { cmsHTRANSFORM transform; };

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
    case CLCMS_CMYK: return COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(1);
    case CLCMS_CMYK_INVERTED: return COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(1) | FLAVOR_SH(1);
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
    cmsUInt32Number out = gray ? format(layout, depth)
                        : format(layout == CLCMS_RGBA ? CLCMS_RGBA : CLCMS_RGB, layout >= CLCMS_CMYK ? 8 : depth);
    cmsUInt32Number flags = cmsFLAGS_BLACKPOINTCOMPENSATION | (layout == CLCMS_RGBA || layout == CLCMS_GRAY_ALPHA ? cmsFLAGS_COPY_ALPHA : 0);
    cmsHTRANSFORM transform = cmsCreateTransform(source, format(layout, depth), target, out, INTENT_RELATIVE_COLORIMETRIC, flags);
    cmsCloseProfile(source);
    cmsCloseProfile(target);
    if (!transform) { snprintf(message, messageLength, "the embedded ICC profile does not fit this image's colors"); return NULL; }
    CLCMS_Transform *result = malloc(sizeof *result);
    if (!result) { cmsDeleteTransform(transform); return NULL; }
    result->transform = transform;
    return result;
}

void CLCMS_apply(CLCMS_Transform *transform, const void *input, void *output, size_t pixels) {
    cmsDoTransform(transform->transform, input, output, (cmsUInt32Number)pixels);
}

void CLCMS_destroy(CLCMS_Transform *transform) {
    if (!transform) return;
    cmsDeleteTransform(transform->transform);
    free(transform);
}
