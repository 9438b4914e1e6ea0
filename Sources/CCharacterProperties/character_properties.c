#include "character_properties.h"

#include <unicode/uchar.h>

int mw_char_is_alphanumeric(uint32_t scalar) {
    UChar32 c = (UChar32)scalar;
    return u_isUAlphabetic(c) || u_getIntPropertyValue(c, UCHAR_NUMERIC_TYPE) != U_NT_NONE;
}

int mw_char_is_alphabetic(uint32_t scalar) { return u_isUAlphabetic((UChar32)scalar); }

int mw_char_is_mark(uint32_t scalar) { return (U_GET_GC_MASK((UChar32)scalar) & U_GC_M_MASK) != 0; }

int mw_char_is_emoji(uint32_t scalar) { return u_hasBinaryProperty((UChar32)scalar, UCHAR_EMOJI); }

int mw_char_is_whitespace(uint32_t scalar) { return u_isUWhiteSpace((UChar32)scalar); }

int mw_char_is_uppercase_or_titlecase(uint32_t scalar) {
    UChar32 c = (UChar32)scalar;
    return u_isUUppercase(c) || u_charType(c) == U_TITLECASE_LETTER;
}

int mw_char_is_lowercase(uint32_t scalar) { return u_isULowercase((UChar32)scalar); }
