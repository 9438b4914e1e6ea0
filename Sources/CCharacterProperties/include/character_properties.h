#ifndef MODALWATCH_CHARACTER_PROPERTIES_H
#define MODALWATCH_CHARACTER_PROPERTIES_H

// Unicode character properties by ICU (Debian: libicu-dev): the classes the text analysis reads
// a scalar by. Each is a lookup in ICU's property tries: no allocation, no lock, no data to load.

#include <stdint.h>

/// Non-zero for a letter or a digit: `Alphabetic`, or a numeric type other than none.
int mw_char_is_alphanumeric(uint32_t scalar);
/// Non-zero for `Alphabetic`.
int mw_char_is_alphabetic(uint32_t scalar);
/// Non-zero for a mark: general category Mn, Mc or Me.
int mw_char_is_mark(uint32_t scalar);
/// Non-zero for `Emoji`.
int mw_char_is_emoji(uint32_t scalar);
/// Non-zero for `White_Space`.
int mw_char_is_whitespace(uint32_t scalar);
/// Non-zero for `Uppercase`, or general category Lt (a titlecase letter such as ǅ).
int mw_char_is_uppercase_or_titlecase(uint32_t scalar);
/// Non-zero for `Lowercase`.
int mw_char_is_lowercase(uint32_t scalar);

#endif
