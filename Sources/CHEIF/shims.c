#include "CHEIF.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static CHEIF_Functions functions;
static int loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(name) \
    if (!(functions.name = (__typeof__(functions.name))dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "libheif.so.1 has no %s", #name); return; }

static void load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libheif is not installed (%s)", reason ? reason : "dlopen failed");
        return;
    }
    RESOLVE(heif_context_add_XMP_metadata)
    RESOLVE(heif_context_add_exif_metadata)
    RESOLVE(heif_context_alloc)
    RESOLVE(heif_context_encode_image)
    RESOLVE(heif_context_free)
    RESOLVE(heif_context_get_encoder_for_format)
    RESOLVE(heif_context_get_primary_image_handle)
    RESOLVE(heif_context_read_from_memory_without_copy)
    RESOLVE(heif_context_set_maximum_image_size_limit)
    RESOLVE(heif_context_write)
    RESOLVE(heif_decode_image)
    RESOLVE(heif_encoder_release)
    RESOLVE(heif_encoder_set_lossless)
    RESOLVE(heif_encoder_set_lossy_quality)
    RESOLVE(heif_encoder_set_parameter_string)
    RESOLVE(heif_encoding_options_alloc)
    RESOLVE(heif_encoding_options_free)
    RESOLVE(heif_have_encoder_for_format)
    RESOLVE(heif_image_add_plane)
    RESOLVE(heif_image_create)
    RESOLVE(heif_image_get_bits_per_pixel_range)
    RESOLVE(heif_image_get_height)
    RESOLVE(heif_image_get_plane)
    RESOLVE(heif_image_get_plane_readonly)
    RESOLVE(heif_image_get_width)
    RESOLVE(heif_image_handle_get_color_profile_type)
    RESOLVE(heif_image_handle_get_height)
    RESOLVE(heif_image_handle_get_list_of_metadata_block_IDs)
    RESOLVE(heif_image_handle_get_luma_bits_per_pixel)
    RESOLVE(heif_image_handle_get_metadata)
    RESOLVE(heif_image_handle_get_metadata_content_type)
    RESOLVE(heif_image_handle_get_metadata_size)
    RESOLVE(heif_image_handle_get_number_of_metadata_blocks)
    RESOLVE(heif_image_handle_get_number_of_thumbnails)
    RESOLVE(heif_image_handle_get_raw_color_profile)
    RESOLVE(heif_image_handle_get_raw_color_profile_size)
    RESOLVE(heif_image_handle_get_width)
    RESOLVE(heif_image_handle_has_alpha_channel)
    RESOLVE(heif_image_handle_has_depth_image)
    RESOLVE(heif_image_handle_release)
    RESOLVE(heif_image_release)
    RESOLVE(heif_image_set_raw_color_profile)
    RESOLVE(heif_nclx_color_profile_alloc)
    RESOLVE(heif_nclx_color_profile_free)
    RESOLVE(heif_image_handle_get_list_of_thumbnail_IDs)
    RESOLVE(heif_image_handle_get_thumbnail)
    RESOLVE(heif_image_handle_get_number_of_auxiliary_images)
    RESOLVE(heif_image_handle_get_list_of_auxiliary_image_IDs)
    RESOLVE(heif_image_handle_get_auxiliary_type)
    RESOLVE(heif_image_handle_free_auxiliary_types)
    RESOLVE(heif_image_handle_get_auxiliary_image_handle)
    loaded = 1;
}

const CHEIF_Functions *CHEIF_functions(void) {
    pthread_once(&once, load);
    return loaded ? &functions : NULL;
}

const char *CHEIF_error(void) { return failure; }
