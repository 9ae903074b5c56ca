// The functions of libwebp, libwebpdemux and libwebpmux that Lumen calls (the headers'
// inline functions call the *Internal ones), each under its library's name and prototype.
#include "CWebP.h"
#include "CLazyLibrary.h"
CLAZY_HIDE_FORWARDERS
#define WEBP_EXTERN extern  // the headers' own says visibility("default")
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

static CLazy_Library webp = CLAZY_LIBRARY("libwebp.so.7");
static CLazy_Library demux = CLAZY_LIBRARY("libwebpdemux.so.2");
static CLazy_Library mux = CLAZY_LIBRARY("libwebpmux.so.3");

__attribute__((visibility("default"))) int CWebP_open(char *why, size_t length) {
    return CLazy_open(&webp, why, length) && CLazy_open(&demux, why, length) && CLazy_open(&mux, why, length);
}

// libwebp: decoding, encoding, memory.
CLAZY_FORWARD(webp, VP8StatusCode, WebPGetFeaturesInternal,
              (const uint8_t *data, size_t size, WebPBitstreamFeatures *features, int version), (data, size, features, version))
CLAZY_FORWARD(webp, uint8_t *, WebPDecodeRGBAInto,
              (const uint8_t *data, size_t size, uint8_t *output, size_t outputSize, int stride),
              (data, size, output, outputSize, stride))
CLAZY_FORWARD(webp, int, WebPConfigInitInternal, (WebPConfig *config, WebPPreset preset, float quality, int version),
              (config, preset, quality, version))
CLAZY_FORWARD(webp, int, WebPValidateConfig, (const WebPConfig *config), (config))
CLAZY_FORWARD(webp, int, WebPPictureInitInternal, (WebPPicture *picture, int version), (picture, version))
CLAZY_FORWARD(webp, int, WebPPictureImportRGB, (WebPPicture *picture, const uint8_t *rgb, int stride), (picture, rgb, stride))
CLAZY_FORWARD(webp, int, WebPPictureImportRGBA, (WebPPicture *picture, const uint8_t *rgba, int stride), (picture, rgba, stride))
CLAZY_FORWARD_VOID(webp, WebPPictureFree, (WebPPicture *picture), (picture))
CLAZY_FORWARD(webp, int, WebPEncode, (const WebPConfig *config, WebPPicture *picture), (config, picture))
CLAZY_FORWARD_VOID(webp, WebPMemoryWriterInit, (WebPMemoryWriter *writer), (writer))
CLAZY_FORWARD_VOID(webp, WebPMemoryWriterClear, (WebPMemoryWriter *writer), (writer))
CLAZY_FORWARD(webp, int, WebPMemoryWrite, (const uint8_t *data, size_t size, const WebPPicture *picture), (data, size, picture))
CLAZY_FORWARD_VOID(webp, WebPFree, (void *pointer), (pointer))

// libwebpdemux: the container, and animations decoded.
CLAZY_FORWARD(demux, WebPDemuxer *, WebPDemuxInternal, (const WebPData *data, int partial, WebPDemuxState *state, int version),
              (data, partial, state, version))
CLAZY_FORWARD_VOID(demux, WebPDemuxDelete, (WebPDemuxer *demuxer), (demuxer))
CLAZY_FORWARD(demux, uint32_t, WebPDemuxGetI, (const WebPDemuxer *demuxer, WebPFormatFeature feature), (demuxer, feature))
CLAZY_FORWARD(demux, int, WebPDemuxGetFrame, (const WebPDemuxer *demuxer, int frame, WebPIterator *iterator),
              (demuxer, frame, iterator))
CLAZY_FORWARD(demux, int, WebPDemuxNextFrame, (WebPIterator *iterator), (iterator))
CLAZY_FORWARD_VOID(demux, WebPDemuxReleaseIterator, (WebPIterator *iterator), (iterator))
CLAZY_FORWARD(demux, int, WebPDemuxGetChunk,
              (const WebPDemuxer *demuxer, const char fourcc[4], int number, WebPChunkIterator *iterator),
              (demuxer, fourcc, number, iterator))
CLAZY_FORWARD_VOID(demux, WebPDemuxReleaseChunkIterator, (WebPChunkIterator *iterator), (iterator))
CLAZY_FORWARD(demux, int, WebPAnimDecoderOptionsInitInternal, (WebPAnimDecoderOptions *options, int version), (options, version))
CLAZY_FORWARD(demux, WebPAnimDecoder *, WebPAnimDecoderNewInternal,
              (const WebPData *data, const WebPAnimDecoderOptions *options, int version), (data, options, version))
CLAZY_FORWARD(demux, int, WebPAnimDecoderGetNext, (WebPAnimDecoder *decoder, uint8_t **buffer, int *timestamp),
              (decoder, buffer, timestamp))
CLAZY_FORWARD_VOID(demux, WebPAnimDecoderDelete, (WebPAnimDecoder *decoder), (decoder))

// libwebpmux: metadata chunks, and animations encoded.
CLAZY_FORWARD(mux, WebPMux *, WebPMuxCreateInternal, (const WebPData *data, int copy, int version), (data, copy, version))
CLAZY_FORWARD(mux, WebPMuxError, WebPMuxSetChunk, (WebPMux *m, const char fourcc[4], const WebPData *chunk, int copy),
              (m, fourcc, chunk, copy))
CLAZY_FORWARD(mux, WebPMuxError, WebPMuxAssemble, (WebPMux *m, WebPData *assembled), (m, assembled))
CLAZY_FORWARD_VOID(mux, WebPMuxDelete, (WebPMux *m), (m))
CLAZY_FORWARD(mux, int, WebPAnimEncoderOptionsInitInternal, (WebPAnimEncoderOptions *options, int version), (options, version))
CLAZY_FORWARD(mux, WebPAnimEncoder *, WebPAnimEncoderNewInternal,
              (int width, int height, const WebPAnimEncoderOptions *options, int version), (width, height, options, version))
CLAZY_FORWARD(mux, int, WebPAnimEncoderAdd, (WebPAnimEncoder *encoder, WebPPicture *frame, int timestamp, const WebPConfig *config),
              (encoder, frame, timestamp, config))
CLAZY_FORWARD(mux, int, WebPAnimEncoderAssemble, (WebPAnimEncoder *encoder, WebPData *data), (encoder, data))
CLAZY_FORWARD(mux, const char *, WebPAnimEncoderGetError, (WebPAnimEncoder *encoder), (encoder))
CLAZY_FORWARD_VOID(mux, WebPAnimEncoderDelete, (WebPAnimEncoder *encoder), (encoder))
