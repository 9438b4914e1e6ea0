#include "word_breaks.h"

#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

// The iterator each count clones: made once per process, never changed after (ubrk_clone is
// thread-safe on it), never closed. Cloning costs about a tenth of opening one.
static UBreakIterator *template_iterator;
static pthread_once_t template_once = PTHREAD_ONCE_INIT;

static void make_template(void) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *made = ubrk_open(UBRK_WORD, "", NULL, 0, &status);
    template_iterator = U_SUCCESS(status) ? made : NULL;
}

long mw_word_count(const uint8_t *text, size_t length, long limit) {
    if (length > INT32_MAX) return -1;
    pthread_once(&template_once, make_template);
    if (template_iterator == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *words = ubrk_clone(template_iterator, &status);
    if (U_FAILURE(status)) return -1;
    UText utext = UTEXT_INITIALIZER;
    utext_openUTF8(&utext, (const char *)text, (int64_t)length, &status);
    ubrk_setUText(words, &utext, &status);
    long count = -1;
    if (U_SUCCESS(status)) {
        count = 0;
        ubrk_first(words);
        while (count < limit && ubrk_next(words) != UBRK_DONE) {
            if (ubrk_getRuleStatus(words) != UBRK_WORD_NONE) count += 1;
        }
    }
    ubrk_close(words);
    utext_close(&utext);
    return count;
}
