/* Message templates, plural rules and locales over the system ICU (MessageFormat, PluralRules, Locale).
 *
 * RULE: plain C only; no ICU header and no ICU type, so Swift modules importing this also import Foundation safely.
 *
 * Text:    all strings crossing this boundary are UTF-8, passed as pointer + byte length (no NUL needed).
 * Offsets: error offsets count Unicode scalars (code points) from the start of the pattern, never UTF-16 units.
 * Output:  text is written into caller buffers; the return value is the full length needed, so a result longer
 *          than `cap` means "call again with a bigger buffer". Nothing is allocated for the caller except handles.
 * Threads: an hm_message is NOT safe to use from two threads at once (ICU's MessageFormat creates members lazily
 *          inside const methods); use one per thread or a lock. An hm_plural is read-only after open. */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif

/* ICU's version, e.g. "72.1". Returns the length written. */
int32_t hm_icu_version(char *out, int32_t cap);

/* ---- Limits ---------------------------------------------------------------------------------------------------- */
#define HM_MAX_PATTERN_BYTES 4096 /* longest accepted pattern, in UTF-8 bytes */
#define HM_MAX_ARGUMENT_DEPTH 5   /* arguments nested inside plural/select branches, counting the outermost as 1 */

/* ---- Errors ------------------------------------------------------------------------------------------------------ */
#define HM_ERR_NONE 0
#define HM_ERR_SYNTAX 1                 /* ICU: bad argument syntax, unterminated style, bad selector */
#define HM_ERR_UNMATCHED_BRACES 2       /* an argument or branch is never closed */
#define HM_ERR_MISSING_OTHER 3          /* plural/select/selectordinal without an `other` branch */
#define HM_ERR_UNKNOWN_ARGUMENT_TYPE 4  /* `{n, foo}` */
#define HM_ERR_UNSUPPORTED_ARGUMENT 5   /* `choice`: deprecated, use plural */
#define HM_ERR_BAD_SKELETON 6           /* `{n, number, ::...}` skeleton ICU rejects */
#define HM_ERR_BAD_STYLE 7              /* a number/date pattern style ICU rejects */
#define HM_ERR_UNKNOWN_PLURAL_CATEGORY 8 /* plural selector that is neither a CLDR category nor `=n` */
#define HM_ERR_DUPLICATE_SELECTOR 9     /* the same selector twice in one argument (ICU silently keeps the first) */
#define HM_ERR_CONFLICTING_KINDS 10     /* one name used as, e.g., both a date and a number */
#define HM_ERR_TOO_LONG 11              /* pattern longer than HM_MAX_PATTERN_BYTES */
#define HM_ERR_TOO_DEEP 12              /* arguments nested deeper than HM_MAX_ARGUMENT_DEPTH */
#define HM_ERR_INVALID_LOCALE 13        /* not a well-formed BCP 47 tag */
#define HM_ERR_UNKNOWN_TIME_ZONE 14     /* not a system time zone id known to ICU */
#define HM_ERR_BAD_ARGUMENT_VALUE 15    /* at format time: a value of the wrong kind for its argument */
#define HM_ERR_INTERNAL 16              /* any other ICU failure; see icu_code */

typedef struct hm_error {
    int32_t code;      /* HM_ERR_* */
    int32_t offset;    /* Unicode scalar offset into the pattern, -1 = none */
    int32_t argument;  /* index into the argument table, -1 = none */
    int32_t icu_code;  /* raw UErrorCode, for logs */
    char icu_name[48]; /* u_errorName(icu_code), NUL-terminated */
} hm_error;

/* ---- Compiled templates -------------------------------------------------------------------------------------- */
typedef struct hm_message hm_message;

/* Argument kinds, one per argument name (the first typed use wins; `{x}` alone is plain). */
#define HM_KIND_PLAIN 0
#define HM_KIND_NUMBER 1 /* number, spellout, ordinal, duration */
#define HM_KIND_DATE 2
#define HM_KIND_TIME 3
#define HM_KIND_PLURAL 4
#define HM_KIND_SELECT 5
#define HM_KIND_SELECTORDINAL 6

/* Value kinds; also bit positions in hm_argument_info.accepts. */
#define HM_VALUE_MISSING 0
#define HM_VALUE_STRING 1
#define HM_VALUE_INT 2
#define HM_VALUE_DOUBLE 3
#define HM_VALUE_DATE 4 /* f64 = milliseconds since 1970-01-01T00:00:00Z */

typedef struct hm_argument_info {
    const char *name; /* UTF-8, owned by the handle */
    int32_t name_len;
    int32_t kind;    /* HM_KIND_* */
    int32_t accepts; /* bit set of (1 << HM_VALUE_*) that every use of the name accepts */
    bool nested;     /* true when every use sits inside a plural/select branch */
} hm_argument_info;

/* Validates and compiles `pattern` for `locale` (a BCP 47 tag). `time_zone` (an IANA id, or empty for none) reaches
 * every date/time argument, nested ones included. Returns NULL and fills `err` on failure. */
hm_message *hm_message_open(const char *pattern, int32_t pattern_len, const char *locale, int32_t locale_len,
                            const char *time_zone, int32_t time_zone_len, hm_error *err);
void hm_message_close(hm_message *m);

/* Every argument of the template, nested ones too, in order of first appearance. */
int32_t hm_message_argument_count(const hm_message *m);
bool hm_message_argument_at(const hm_message *m, int32_t index, hm_argument_info *out);

/* One value per argument, in argument-table order. Strings are UTF-8 slices of one shared `blob`. */
typedef struct hm_value {
    int32_t kind; /* HM_VALUE_*; MISSING leaves the argument out, so ICU prints it as `{name}` */
    int32_t str_off;
    int32_t str_len;
    int32_t reserved;
    int64_t i64;
    double f64;
} hm_value;

/* Formats with `count` values (== hm_message_argument_count). Returns the UTF-8 length needed (greater than `cap`
 * means "retry with a bigger buffer"), or -1 with `err` filled. */
int32_t hm_message_format(hm_message *m, const char *blob, const hm_value *values, int32_t count, char *out,
                          int32_t cap, hm_error *err);

/* ---- Plural rules ---------------------------------------------------------------------------------------------- */
#define HM_PLURAL_ZERO 0
#define HM_PLURAL_ONE 1
#define HM_PLURAL_TWO 2
#define HM_PLURAL_FEW 3
#define HM_PLURAL_MANY 4
#define HM_PLURAL_OTHER 5

typedef struct hm_plural hm_plural;
hm_plural *hm_plural_open(const char *locale, int32_t locale_len, bool ordinal, hm_error *err);
void hm_plural_close(hm_plural *p);
/* The category (HM_PLURAL_*) of `number`. */
int32_t hm_plural_select(const hm_plural *p, double number);
/* The categories the locale has, as a bit set of (1 << HM_PLURAL_*). */
int32_t hm_plural_categories(const hm_plural *p);

/* ---- Locales ----------------------------------------------------------------------------------------------------- */
/* Canonical BCP 47 form of `tag` (aliases replaced, case normalised: "ZH-hant-tw" -> "zh-Hant-TW", "iw" -> "he").
 * Returns the length needed, or -1 with err->code = HM_ERR_INVALID_LOCALE. */
int32_t hm_locale_canonicalize(const char *tag, int32_t tag_len, char *out, int32_t cap, hm_error *err);

#define HM_LOCALE_DATA_EXACT 0    /* ICU has data for the locale itself */
#define HM_LOCALE_DATA_FALLBACK 1 /* only for a parent, e.g. pl-XX -> pl; `actual` names it */
#define HM_LOCALE_DATA_NONE 2     /* nothing: ICU would use root or the process default */
/* Whether ICU has data for a canonical BCP 47 tag; `actual` receives the ICU id of the data found. */
int32_t hm_locale_data(const char *tag, int32_t tag_len, char *actual, int32_t cap);

#ifdef __cplusplus
}
#endif
