#include <zlib.h>
#include <lzma.h>
#include <zstd.h>
#include <zstd_errors.h>
#include <libdeflate.h>

/// zlib's inflateInit2 is a macro: a function Swift can call.
static inline int postmortem_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

/// liblzma's flag for reading every stream of a file, one after the other (a macro Swift does not import).
static const uint32_t postmortem_lzma_concatenated = LZMA_CONCATENATED;
