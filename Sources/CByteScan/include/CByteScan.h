#ifndef POSTMORTEM_CBYTESCAN_H
#define POSTMORTEM_CBYTESCAN_H
#include <stddef.h>
#include <stdint.h>

/// A fixed set of at most 64 byte strings ("markers"), each keyed by a pair of its bytes (first byte times 256 plus
/// second), as `postmortem_marker_scan` reads them. A marker of one byte is keyed by each of the 256 pairs it starts.
typedef struct {
    /// Every marker's bytes, one after the other.
    const uint8_t *marker_bytes;
    /// `entry_count` entries sorted by `pairs`: each one marker's index (its bit in the result), where its bytes start
    /// in `marker_bytes`, how many there are, and where its key pair lies in them.
    const uint16_t *pairs;
    const int32_t *indices;
    const int32_t *starts;
    const int32_t *lengths;
    const int32_t *key_offsets;
    int32_t entry_count;
    /// Every marker's bit: a scan that has found them all stops.
    uint64_t every_marker;
    /// The bits of the markers of one byte.
    uint64_t single_markers;
} postmortem_marker_table;

/// The markers of `table` that occur in the `count` bytes of `text` (bit `i` set for the marker of index `i`), in one
/// pass. Where the processor has a byte shuffle (SSSE3), 16 positions are tested at once against the key pairs still
/// to be found, and only those that may start one are looked at.
uint64_t postmortem_marker_scan(const postmortem_marker_table *table, const uint8_t *text, size_t count);

#endif
