#ifndef LUMEN_CHEIF_H
#define LUMEN_CHEIF_H
// libheif, opened on first use with dlopen instead of linked: loading it (and the HEVC
// and AV1 codec libraries it pulls in, whose initialisers run at load) costs every lumen
// process about 4 ms, and a lumen copied to a machine without libheif still runs. The
// types come from libheif's header; the functions from this table.
#include <libheif/heif.h>

typedef struct {
    __typeof__(heif_context_add_XMP_metadata) *heif_context_add_XMP_metadata;
    __typeof__(heif_context_add_exif_metadata) *heif_context_add_exif_metadata;
    __typeof__(heif_context_alloc) *heif_context_alloc;
    __typeof__(heif_context_encode_image) *heif_context_encode_image;
    __typeof__(heif_context_free) *heif_context_free;
    __typeof__(heif_context_get_encoder_for_format) *heif_context_get_encoder_for_format;
    __typeof__(heif_context_get_primary_image_handle) *heif_context_get_primary_image_handle;
    __typeof__(heif_context_read_from_memory_without_copy) *heif_context_read_from_memory_without_copy;
    __typeof__(heif_context_set_maximum_image_size_limit) *heif_context_set_maximum_image_size_limit;
    __typeof__(heif_context_write) *heif_context_write;
    __typeof__(heif_decode_image) *heif_decode_image;
    __typeof__(heif_encoder_release) *heif_encoder_release;
    __typeof__(heif_encoder_set_lossless) *heif_encoder_set_lossless;
    __typeof__(heif_encoder_set_lossy_quality) *heif_encoder_set_lossy_quality;
    __typeof__(heif_encoder_set_parameter_string) *heif_encoder_set_parameter_string;
    __typeof__(heif_encoding_options_alloc) *heif_encoding_options_alloc;
    __typeof__(heif_encoding_options_free) *heif_encoding_options_free;
    __typeof__(heif_have_encoder_for_format) *heif_have_encoder_for_format;
    __typeof__(heif_image_add_plane) *heif_image_add_plane;
    __typeof__(heif_image_create) *heif_image_create;
    __typeof__(heif_image_get_bits_per_pixel_range) *heif_image_get_bits_per_pixel_range;
    __typeof__(heif_image_get_height) *heif_image_get_height;
    __typeof__(heif_image_get_plane) *heif_image_get_plane;
    __typeof__(heif_image_get_plane_readonly) *heif_image_get_plane_readonly;
    __typeof__(heif_image_get_width) *heif_image_get_width;
    __typeof__(heif_image_handle_get_color_profile_type) *heif_image_handle_get_color_profile_type;
    __typeof__(heif_image_handle_get_height) *heif_image_handle_get_height;
    __typeof__(heif_image_handle_get_list_of_metadata_block_IDs) *heif_image_handle_get_list_of_metadata_block_IDs;
    __typeof__(heif_image_handle_get_luma_bits_per_pixel) *heif_image_handle_get_luma_bits_per_pixel;
    __typeof__(heif_image_handle_get_metadata) *heif_image_handle_get_metadata;
    __typeof__(heif_image_handle_get_metadata_content_type) *heif_image_handle_get_metadata_content_type;
    __typeof__(heif_image_handle_get_metadata_size) *heif_image_handle_get_metadata_size;
    __typeof__(heif_image_handle_get_number_of_metadata_blocks) *heif_image_handle_get_number_of_metadata_blocks;
    __typeof__(heif_image_handle_get_number_of_thumbnails) *heif_image_handle_get_number_of_thumbnails;
    __typeof__(heif_image_handle_get_raw_color_profile) *heif_image_handle_get_raw_color_profile;
    __typeof__(heif_image_handle_get_raw_color_profile_size) *heif_image_handle_get_raw_color_profile_size;
    __typeof__(heif_image_handle_get_width) *heif_image_handle_get_width;
    __typeof__(heif_image_handle_has_alpha_channel) *heif_image_handle_has_alpha_channel;
    __typeof__(heif_image_handle_has_depth_image) *heif_image_handle_has_depth_image;
    __typeof__(heif_image_handle_release) *heif_image_handle_release;
    __typeof__(heif_image_release) *heif_image_release;
    __typeof__(heif_image_set_raw_color_profile) *heif_image_set_raw_color_profile;
    __typeof__(heif_nclx_color_profile_alloc) *heif_nclx_color_profile_alloc;
    __typeof__(heif_nclx_color_profile_free) *heif_nclx_color_profile_free;
    __typeof__(heif_image_handle_get_list_of_thumbnail_IDs) *heif_image_handle_get_list_of_thumbnail_IDs;
    __typeof__(heif_image_handle_get_thumbnail) *heif_image_handle_get_thumbnail;
    __typeof__(heif_image_handle_get_number_of_auxiliary_images) *heif_image_handle_get_number_of_auxiliary_images;
    __typeof__(heif_image_handle_get_list_of_auxiliary_image_IDs) *heif_image_handle_get_list_of_auxiliary_image_IDs;
    __typeof__(heif_image_handle_get_auxiliary_type) *heif_image_handle_get_auxiliary_type;
    __typeof__(heif_image_handle_free_auxiliary_types) *heif_image_handle_free_auxiliary_types;
    __typeof__(heif_image_handle_get_auxiliary_image_handle) *heif_image_handle_get_auxiliary_image_handle;
} CHEIF_Functions;

/// The functions of libheif.so.1, loaded once; NULL when the library cannot be loaded
/// (then CHEIF_error() says why).
const CHEIF_Functions *CHEIF_functions(void);
const char *CHEIF_error(void);

#endif
