// JSON text 16 bytes at a time: for the event decoder, a bitmap of the quotes and the offset of
// the first byte that needs the validating scanner; for the writers, the JSON string escaper
// (`mw_json_escape`) and the scan for the bytes a terminal would act on. SSE2 compares and
// movemask on x86_64 (Swift's SIMD types have no movemask); a portable word-at-a-time version
// elsewhere. The scans are static inline, so Swift inlines them; the escaper is in
// byte_classes.c, hidden (each binary and rule module that links it calls its own copy).
#ifndef MODALWATCH_BYTE_CLASSES_H
#define MODALWATCH_BYTE_CLASSES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The eight bytes at `p` as a little-endian word (byte 0 in the lowest bits), on any host.
static inline uint64_t mw_load_le64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/// The classes of 16 bytes: bit i is byte i.
typedef struct mw_classes16 {
    /// `"`.
    uint32_t quotes;
    /// `\`, a control character (below 0x20) or a byte that is not ASCII (0x80 and above).
    uint32_t attention;
} mw_classes16;

#if defined(__SSE2__)
static inline mw_classes16 mw_classify16(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    // A signed compare: below 0x20, and 0x80-0xFF (negative as signed bytes).
    __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    mw_classes16 c;
    c.quotes = (uint32_t)_mm_movemask_epi8(quote);
    c.attention = (uint32_t)_mm_movemask_epi8(_mm_or_si128(backslash, low));
    return c;
}
#else
/// The high bit of each byte of a word gathered into the low 8 bits (byte i to bit i).
static inline uint32_t mw_gather_high_bits(uint64_t highs) {
    return (uint32_t)(((highs >> 7) * 0x0102040810204080ull) >> 56);
}

/// The high bit of each byte of `w` that equals `byte` (exact: no false positives).
static inline uint64_t mw_equal_bytes(uint64_t w, uint8_t byte) {
    uint64_t x = w ^ (0x0101010101010101ull * byte);
    return ~(((x & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | x) & 0x8080808080808080ull;
}

/// The high bit of each byte of `w` below 0x20 or at least 0x80 (exact).
static inline uint64_t mw_attention_bytes(uint64_t w) {
    uint64_t below20 = ~((w & 0x7F7F7F7F7F7F7F7Full) + 0x6060606060606060ull) & 0x8080808080808080ull;
    return below20 | (w & 0x8080808080808080ull) | mw_equal_bytes(w, '\\');
}

static inline mw_classes16 mw_classify16(const uint8_t *p) {
    uint64_t w0 = mw_load_le64(p), w1 = mw_load_le64(p + 8);
    mw_classes16 c;
    c.quotes = mw_gather_high_bits(mw_equal_bytes(w0, '"')) | mw_gather_high_bits(mw_equal_bytes(w1, '"')) << 8;
    c.attention = mw_gather_high_bits(mw_attention_bytes(w0)) | mw_gather_high_bits(mw_attention_bytes(w1)) << 8;
    return c;
}
#endif

/// Bytes of bitmap `mw_classify_plain` may write for `limit` bytes classified: a bit a byte, the
/// 8-byte sentinel after it, and 8 bytes of slack for the word loads of a reader.
#define MW_CLASSES_BITMAP_BYTES(limit) ((limit) / 8 + 16)

/// Classifies `base[start..<end]`, at most `limit` bytes of it (a multiple of 16), 16 bytes at a
/// time, up to the first byte that needs attention. Bit `i - start` of `quotes` (bit k of byte
/// k / 8, little-endian) is set when `base[i]` is `"`, for every byte up to the end of the
/// block holding that byte; the 8 bytes after the last block written are 0xFF (a sentinel, so a
/// search for the next quote always stops). Returns the offset of the first byte that needs
/// attention, or where the classified bytes end (at most `end`).
///
/// Reads no byte of `base` at or after `end`: the last block of fewer than 16 bytes is read from
/// `tail`, which holds the bytes `base[tail_start..<end]` (at most 16) followed by 16 zero bytes
/// (zero needs attention, so the scan stops at `end` there).
static inline size_t mw_classify_plain(const uint8_t *base, size_t start, size_t end, size_t limit,
                                       const uint8_t *tail, size_t tail_start, uint8_t *quotes) {
    size_t stop = end - start > limit ? start + limit : end;
    size_t i = start;
    uint8_t *out = quotes;
    uint64_t sentinel = ~(uint64_t)0;
    while (i + 32 <= stop) {
        mw_classes16 a = mw_classify16(base + i);
        mw_classes16 b = mw_classify16(base + i + 16);
        uint32_t q = a.quotes | b.quotes << 16;
        uint32_t attention = a.attention | b.attention << 16;
        memcpy(out, &q, 4);
        if (attention != 0) {
            memcpy(out + 4, &sentinel, 8);
            return i + (size_t)__builtin_ctz(attention);
        }
        i += 32;
        out += 4;
    }
    if (i < stop) {
        // One or two blocks of 16 left; a block that would reach past `end` comes from `tail`.
        mw_classes16 a = i + 16 <= end ? mw_classify16(base + i) : mw_classify16(tail + (i - tail_start));
        uint32_t q = a.quotes;
        uint32_t attention = a.attention;
        if (i + 16 < stop) {
            mw_classes16 b = i + 32 <= end ? mw_classify16(base + i + 16) : mw_classify16(tail + (i + 16 - tail_start));
            q |= b.quotes << 16;
            attention |= b.attention << 16;
        }
        memcpy(out, &q, 4);
        memcpy(out + 4, &sentinel, 8);
        if (attention != 0) {
            size_t first = i + (size_t)__builtin_ctz(attention);
            return first < stop ? first : stop;
        }
        return stop;
    }
    memcpy(out, &sentinel, 8);
    return i;
}

/// The most bytes `mw_json_escape` writes for `count` input bytes (a control character becomes six).
#define MW_JSON_ESCAPED_MAX(count) ((count) * 6)

/// Writes `in[0..<count]` escaped as the inside of a JSON string (no quotes) at `out`, which has
/// room for `MW_JSON_ESCAPED_MAX(count)` bytes (the copy of plain bytes may write up to 16 bytes
/// past what it returns, always inside that room); returns how many bytes it wrote.
///
/// `"` and `\` become `\"` and `\\`; the control characters `\n`, `\r`, `\t`, `\b`, `\f`, and the others
/// `\u00xx` (lowercase hex); well-formed UTF-8 (RFC 3629: shortest forms, no surrogates, at most
/// U+10FFFF) is copied as it is, and each byte that does not start a well-formed sequence becomes
/// U+FFFD (EF BF BD). With `escape_line_separators`, U+2028 and U+2029 become `\u2028`, `\u2029`.
/// Plain bytes go 16 at a time (SSE2 on x86_64, words of 8 elsewhere).
__attribute__((visibility("hidden")))
size_t mw_json_escape(const uint8_t *in, size_t count, uint8_t *out, int escape_line_separators);

/// The offset of the first byte of `p[from..<count]` that is 0x7F or above, or `count`: 16 bytes at a
/// time (SSE2 on x86_64, words of 8 elsewhere).
static inline size_t mw_first_at_least_7f(const uint8_t *p, size_t from, size_t count) {
    size_t i = from;
#if defined(__SSE2__)
    const __m128i del = _mm_set1_epi8(0x7F);
    // 32 bytes a turn: one test for both halves, the half found again only at a hit.
    while (i + 32 <= count) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16));
        __m128i flagged = _mm_or_si128(_mm_or_si128(a, _mm_cmpeq_epi8(a, del)), _mm_or_si128(b, _mm_cmpeq_epi8(b, del)));
        if (_mm_movemask_epi8(flagged) != 0) break;
        i += 32;
    }
    while (i + 16 <= count) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        uint32_t mask = (uint32_t)_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, del)));
        if (mask != 0) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#endif
    while (i + 8 <= count) {
        uint64_t w = mw_load_le64(p + i);
        // The high bit of each byte at 0x7F or above (adding 1 to the low seven bits carries into
        // the high bit exactly for 0x7F; no byte carries into the next).
        uint64_t flagged = (w | ((w & 0x7F7F7F7F7F7F7F7Full) + 0x0101010101010101ull)) & 0x8080808080808080ull;
        if (flagged != 0) return i + (size_t)(__builtin_ctzll(flagged) >> 3);
        i += 8;
    }
    while (i < count && p[i] < 0x7F) i++;
    return i;
}

#endif
