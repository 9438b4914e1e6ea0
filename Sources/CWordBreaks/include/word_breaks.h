#ifndef MODALWATCH_WORD_BREAKS_H
#define MODALWATCH_WORD_BREAKS_H

// Words of a text by ICU's word break iterator (Debian: libicu-dev), which finds the words of
// scripts written without spaces (Han, Kana, Thai, Lao, Khmer, Myanmar) with its dictionaries.

#include <stddef.h>
#include <stdint.h>

/// The number of words in the `length` bytes of UTF-8 at `text`, counted up to `limit` (the
/// count stops there): the segments ICU's word break iterator (root locale) gives a status
/// other than UBRK_WORD_NONE, that is runs of letters, kana, ideographs or digits; spaces,
/// punctuation and symbols are not words. Returns -1 when ICU fails (no data, no memory).
/// Allocates: an iterator cloned per call from one made at the first call (ICU loads its rules
/// and dictionaries once per process); a few microseconds for a short title.
long mw_word_count(const uint8_t *text, size_t length, long limit);

#endif
