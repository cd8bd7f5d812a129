#include "CByteScan.h"

#include <stdbool.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// The key pairs still to be looked for: exactly (a bit per pair), and as a filter that tests 16 positions at once
/// with four shuffles: each pair's first byte is in a bucket (of 8) that its low and high nibble both select, its
/// second byte likewise; a position may start a key pair when its byte and the next share a bucket. The filter may
/// let through pairs found since it was made (each then costs a look at `exact`): it is made again once a few have.
typedef struct {
    uint64_t exact[1024];
    uint8_t first_low[16], first_high[16], second_low[16], second_high[16];
    /// Whether pairs were retired since the filter was made, and how many positions it let through since that were
    /// no key.
    bool stale;
    int rejected;
} key_pairs;

/// Bucket 7 holds the first bytes of the markers of one byte (any second byte passes with them); the other pairs
/// share buckets 0 to 6 by their first byte's high nibble.
enum { single_bucket = 0x80, shared_buckets = 7 };

static inline bool is_key(const key_pairs *keys, unsigned pair) {
    return (keys->exact[pair >> 6] >> (pair & 63)) & 1;
}

static inline void retire(key_pairs *keys, unsigned pair) {
    keys->exact[pair >> 6] &= ~((uint64_t)1 << (pair & 63));
    keys->stale = true;
}

/// Makes the filter from the pairs of `table` still keys.
static void rebuild_filter(const postmortem_marker_table *table, key_pairs *keys) {
    memset(keys->first_low, 0, 16);
    memset(keys->first_high, 0, 16);
    memset(keys->second_low, 0, 16);
    memset(keys->second_high, 0, 16);
    for (int32_t entry = 0; entry < table->entry_count; entry++) {
        const unsigned pair = table->pairs[entry];
        if (!is_key(keys, pair)) continue;
        const unsigned first = pair >> 8, second = pair & 255;
        if (table->lengths[entry] == 1) {
            keys->first_low[first & 15] |= single_bucket;
            keys->first_high[first >> 4] |= single_bucket;
            continue;
        }
        // By the first byte's high nibble, so that the first bytes of a bucket are exactly those its nibbles select
        // (text's letters, digits and punctuation lie in six high nibbles).
        const uint8_t bit = (uint8_t)(1u << ((first >> 4) % shared_buckets));
        keys->first_low[first & 15] |= bit;
        keys->first_high[first >> 4] |= bit;
        keys->second_low[second & 15] |= bit;
        keys->second_high[second >> 4] |= bit;
    }
    for (int nibble = 0; nibble < 16; nibble++) {
        keys->second_low[nibble] |= single_bucket;
        keys->second_high[nibble] |= single_bucket;
    }
    keys->stale = false;
    keys->rejected = 0;
}

/// The first entry keyed by a pair of at least `pair`.
static int32_t first_entry(const postmortem_marker_table *table, unsigned pair) {
    int32_t low = 0, high = table->entry_count;
    while (low < high) {
        const int32_t middle = low + (high - low) / 2;
        if (table->pairs[middle] < pair) low = middle + 1; else high = middle;
    }
    return low;
}

/// Compares the markers keyed by `pair` with `text` where their key would lie at `position`, adding those found to
/// `found`; true when every one of them is found.
static bool compare(const postmortem_marker_table *table, unsigned pair, const uint8_t *text, size_t count,
                    size_t position, uint64_t *found) {
    bool done = true;
    for (int32_t entry = first_entry(table, pair); entry < table->entry_count && table->pairs[entry] == pair; entry++) {
        const uint64_t bit = (uint64_t)1 << table->indices[entry];
        if (*found & bit) continue;
        const size_t offset = (size_t)table->key_offsets[entry], length = (size_t)table->lengths[entry];
        if (position < offset || position - offset + length > count) {
            done = false;
            continue;
        }
        const uint8_t *marker = table->marker_bytes + table->starts[entry], *start = text + position - offset;
        size_t matched = 0;
        while (matched < length && start[matched] == marker[matched]) matched++;
        if (matched == length) {
            *found |= bit;
        } else {
            done = false;
        }
    }
    return done;
}

/// Retires every pair starting with `first` whose markers are all in `found` (once a marker of one byte is found, the
/// 256 pairs it starts).
static void retire_found(const postmortem_marker_table *table, key_pairs *keys, unsigned first, uint64_t found) {
    int32_t entry = first_entry(table, first << 8);
    while (entry < table->entry_count && (unsigned)table->pairs[entry] >> 8 == first) {
        const unsigned pair = table->pairs[entry];
        bool done = true;
        for (; entry < table->entry_count && table->pairs[entry] == pair; entry++) {
            if (!(found & ((uint64_t)1 << table->indices[entry]))) done = false;
        }
        if (done && is_key(keys, pair)) retire(keys, pair);
    }
}

/// Looks at the position `position` of `text`, which starts the key pair `pair`.
static void visit(const postmortem_marker_table *table, key_pairs *keys, unsigned pair, const uint8_t *text,
                  size_t count, size_t position, uint64_t *found) {
    const uint64_t before = *found;
    if (compare(table, pair, text, count, position, found)) retire(keys, pair);
    if ((*found & ~before & table->single_markers) != 0) retire_found(table, keys, pair >> 8, *found);
}

#if defined(__x86_64__)
/// The positions from `position` that may start a key pair, 16 at a time, while 17 bytes are left; returns where it
/// stopped (the rest is for the exact loop).
__attribute__((target("ssse3"))) static size_t scan_shuffled(const postmortem_marker_table *table, key_pairs *keys,
                                                             const uint8_t *text, size_t count, size_t position,
                                                             uint64_t *found) {
    const __m128i nibble = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
    while (position + 17 <= count && *found != table->every_marker) {
        // Made again once it lets through more than a few positions that are no key any more.
        if (keys->stale && keys->rejected > 32) rebuild_filter(table, keys);
        const __m128i first_low = _mm_loadu_si128((const __m128i *)keys->first_low);
        const __m128i first_high = _mm_loadu_si128((const __m128i *)keys->first_high);
        const __m128i second_low = _mm_loadu_si128((const __m128i *)keys->second_low);
        const __m128i second_high = _mm_loadu_si128((const __m128i *)keys->second_high);
        const __m128i firsts = _mm_loadu_si128((const __m128i *)(text + position));
        const __m128i seconds = _mm_loadu_si128((const __m128i *)(text + position + 1));
        const __m128i first = _mm_and_si128(
            _mm_shuffle_epi8(first_low, _mm_and_si128(firsts, nibble)),
            _mm_shuffle_epi8(first_high, _mm_and_si128(_mm_srli_epi16(firsts, 4), nibble)));
        const __m128i second = _mm_and_si128(
            _mm_shuffle_epi8(second_low, _mm_and_si128(seconds, nibble)),
            _mm_shuffle_epi8(second_high, _mm_and_si128(_mm_srli_epi16(seconds, 4), nibble)));
        unsigned maybe =
            ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(first, second), zero)) & 0xffffu;
        while (maybe != 0) {
            const size_t at = position + (size_t)__builtin_ctz(maybe);
            maybe &= maybe - 1;
            const unsigned pair = (unsigned)text[at] << 8 | text[at + 1];
            if (is_key(keys, pair)) {
                visit(table, keys, pair, text, count, at, found);
            } else {
                keys->rejected++;
            }
        }
        position += 16;
    }
    return position;
}
#endif

uint64_t postmortem_marker_scan(const postmortem_marker_table *table, const uint8_t *text, size_t count) {
    key_pairs keys;
    memset(keys.exact, 0, sizeof keys.exact);
    for (int32_t entry = 0; entry < table->entry_count; entry++) {
        keys.exact[table->pairs[entry] >> 6] |= (uint64_t)1 << (table->pairs[entry] & 63);
    }
    uint64_t found = 0;
    size_t position = 0;
#if defined(__x86_64__)
    if (count >= 17 && __builtin_cpu_supports("ssse3")) {
        rebuild_filter(table, &keys);
        position = scan_shuffled(table, &keys, text, count, position, &found);
    }
#endif
    for (; position + 1 < count && found != table->every_marker; position++) {
        const unsigned pair = (unsigned)text[position] << 8 | text[position + 1];
        if (is_key(&keys, pair)) visit(table, &keys, pair, text, count, position, &found);
    }
    // The last byte starts no pair: a marker of one byte may still start there (its pair with a zero stands for it).
    if (count > 0 && found != table->every_marker) {
        const unsigned pair = (unsigned)text[count - 1] << 8;
        if (is_key(&keys, pair)) compare(table, pair, text, count, count - 1, &found);
    }
    return found;
}
