// The static inline functions are in include/byte_classes.h; the JSON string escaper is here.
#include "byte_classes.h"

/// The length (2 to 4) of the well-formed UTF-8 sequence led by `p[i]` (of `n` bytes in all), or 0.
static inline size_t sequence_length(const uint8_t *p, size_t i, size_t n) {
    uint8_t lead = p[i], low = 0x80, high = 0xBF;
    size_t trailing;
    if (lead >= 0xC2 && lead <= 0xDF) {
        trailing = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        trailing = 2;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        trailing = 3;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (i + trailing >= n || p[i + 1] < low || p[i + 1] > high) return 0;
    for (size_t k = 2; k <= trailing; k++) {
        if ((p[i + k] & 0xC0) != 0x80) return 0;
    }
    return trailing + 1;
}

/// The high bit of each byte of `w` that is `"`, `\`, below 0x20 or at least 0x80 (exact).
static inline uint64_t special_bytes(uint64_t w) {
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    uint64_t is_quote = ~(((quote & low7) + low7) | quote) & high;
    uint64_t is_backslash = ~(((backslash & low7) + low7) | backslash) & high;
    uint64_t below20 = ~((w & low7) + 0x6060606060606060ull) & high;
    return is_quote | is_backslash | below20 | (w & high);
}

/// The bytes from `i` on that need no escape (printable ASCII but `"` and `\`), up to `n`.
static inline size_t plain_run(const uint8_t *in, size_t i, size_t n) {
    while (i + 8 <= n) {
        uint64_t flagged = special_bytes(mw_load_le64(in + i));
        if (flagged != 0) return i + (size_t)(__builtin_ctzll(flagged) >> 3);
        i += 8;
    }
    while (i < n) {
        uint8_t b = in[i];
        if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') break;
        i++;
    }
    return i;
}

/// Copies `n` bytes: below 16 as two overlapping loads and stores of a word (fixed sizes: inline,
/// no call), longer ones by `memcpy`. Reads only `in[0..<n]`.
static inline void copy_bytes(uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 16) {
        memcpy(out, in, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, in, 8);
        memcpy(&tail, in + n - 8, 8);
        memcpy(out, &head, 8);
        memcpy(out + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, in, 4);
        memcpy(&tail, in + n - 4, 4);
        memcpy(out, &head, 4);
        memcpy(out + n - 4, &tail, 4);
    } else if (n > 0) {
        uint8_t first = in[0], middle = in[n >> 1], last = in[n - 1];
        out[0] = first;
        out[n >> 1] = middle;
        out[n - 1] = last;
    }
}

size_t mw_json_escape(const uint8_t *in, size_t n, uint8_t *out, int escape_line_separators) {
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, o = 0;
    while (i < n) {
#if defined(__SSE2__)
        // 16 bytes at a time: stored whole, then the count moves to the first byte that needs a look.
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + i));
            __m128i special = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
            uint32_t mask = (uint32_t)_mm_movemask_epi8(special);
            _mm_storeu_si128((__m128i *)(void *)(out + o), v);
            if (mask != 0) {
                size_t k = (size_t)__builtin_ctz(mask);
                i += k;
                o += k;
                goto attention;
            }
            i += 16;
            o += 16;
        }
#endif
        {
            size_t end = plain_run(in, i, n);
            copy_bytes(out + o, in + i, end - i);
            o += end - i;
            i = end;
        }
        if (i >= n) break;
#if defined(__SSE2__)
    attention:
#endif
        {
            uint8_t b = in[i];
            if (b >= 0x80) {
                size_t length = sequence_length(in, i, n);
                if (length == 3 && escape_line_separators && b == 0xE2 && in[i + 1] == 0x80
                    && (in[i + 2] == 0xA8 || in[i + 2] == 0xA9)) {
                    memcpy(out + o, "\\u202", 5);
                    out[o + 5] = in[i + 2] == 0xA8 ? '8' : '9';
                    o += 6;
                    i += 3;
                } else if (length > 0) {
                    for (size_t k = 0; k < length; k++) out[o + k] = in[i + k];
                    o += length;
                    i += length;
                } else {
                    out[o] = 0xEF;
                    out[o + 1] = 0xBF;
                    out[o + 2] = 0xBD;
                    o += 3;
                    i += 1;
                }
                continue;
            }
            out[o] = '\\';
            switch (b) {
            case '"': out[o + 1] = '"'; o += 2; break;
            case '\\': out[o + 1] = '\\'; o += 2; break;
            case '\n': out[o + 1] = 'n'; o += 2; break;
            case '\r': out[o + 1] = 'r'; o += 2; break;
            case '\t': out[o + 1] = 't'; o += 2; break;
            case '\b': out[o + 1] = 'b'; o += 2; break;
            case '\f': out[o + 1] = 'f'; o += 2; break;
            default:
                out[o + 1] = 'u';
                out[o + 2] = '0';
                out[o + 3] = '0';
                out[o + 4] = (uint8_t)hex[b >> 4];
                out[o + 5] = (uint8_t)hex[b & 0xF];
                o += 6;
                break;
            }
            i += 1;
        }
    }
    return o;
}
