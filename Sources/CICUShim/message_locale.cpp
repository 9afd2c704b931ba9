// Locales (BCP 47 canonicalization, data availability) and CLDR plural rules.
#include "message_internal.h"

#include <unicode/locid.h>
#include <unicode/plurrule.h>
#include <unicode/ures.h>

#include <cstring>

using herald::fillError;

static_assert(HM_PLURAL_ZERO == 0 && HM_PLURAL_OTHER == 5, "plural categories are mirrored in Swift");

namespace {

constexpr int32_t kMaxTagBytes = 128;

int32_t categoryOf(const icu::UnicodeString &keyword) {
    if (keyword == u"zero") return HM_PLURAL_ZERO;
    if (keyword == u"one") return HM_PLURAL_ONE;
    if (keyword == u"two") return HM_PLURAL_TWO;
    if (keyword == u"few") return HM_PLURAL_FEW;
    if (keyword == u"many") return HM_PLURAL_MANY;
    return HM_PLURAL_OTHER;
}

// Copies `text` into `out` (NUL-terminated when it fits) and returns its full length.
int32_t copyOut(const std::string &text, char *out, int32_t cap) {
    int32_t length = static_cast<int32_t>(text.size());
    if (length < cap) {
        std::memcpy(out, text.data(), text.size());
        out[length] = 0;
    }
    return length;
}

// Parses a BCP 47 tag strictly; ICU ids with underscores ("pl_PL") are accepted too, as devices send them.
bool parseTag(const char *tag, int32_t tagLength, icu::Locale &out) {
    if (tagLength <= 0 || tagLength > kMaxTagBytes) return false;
    std::string text(tag, static_cast<size_t>(tagLength));
    for (char &c : text) {
        if (c == '_') c = '-';
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(text, status);
    if (U_FAILURE(status) || locale.isBogus()) return false;
    out = locale;
    return true;
}

}  // namespace

struct hm_plural {
    std::unique_ptr<icu::PluralRules> rules;
    int32_t categories = 0;
};

extern "C" int32_t hm_locale_canonicalize(const char *tag, int32_t tag_len, char *out, int32_t cap,
                                          hm_error *err) {
    std::memset(err, 0, sizeof(*err));
    try {
        icu::Locale locale;
        UErrorCode status = U_ZERO_ERROR;
        if (!parseTag(tag, tag_len, locale)) {
            fillError(err, HM_ERR_INVALID_LOCALE, -1, -1, U_ILLEGAL_ARGUMENT_ERROR);
            return -1;
        }
        locale.canonicalize(status);  // CLDR aliases: iw -> he, sh -> sr-Latn, mo -> ro
        // A template locale needs a language: "und" and private-use-only tags name none.
        if (U_FAILURE(status) || std::strlen(locale.getLanguage()) == 0) {
            fillError(err, HM_ERR_INVALID_LOCALE, -1, -1, U_FAILURE(status) ? status : U_ILLEGAL_ARGUMENT_ERROR);
            return -1;
        }
        std::string canonical = locale.toLanguageTag<std::string>(status);
        if (U_FAILURE(status)) {
            fillError(err, HM_ERR_INVALID_LOCALE, -1, -1, status);
            return -1;
        }
        return copyOut(canonical, out, cap);
    } catch (...) {
        fillError(err, HM_ERR_INTERNAL, -1, -1, U_MEMORY_ALLOCATION_ERROR);
        return -1;
    }
}

extern "C" int32_t hm_locale_data(const char *tag, int32_t tag_len, char *actual, int32_t cap) {
    try {
        icu::Locale locale;
        if (!parseTag(tag, tag_len, locale)) return HM_LOCALE_DATA_NONE;
        UErrorCode status = U_ZERO_ERROR;
        UResourceBundle *bundle = ures_open(nullptr, locale.getBaseName(), &status);
        int32_t result = HM_LOCALE_DATA_EXACT;
        if (U_FAILURE(status) || status == U_USING_DEFAULT_WARNING) {
            result = HM_LOCALE_DATA_NONE;  // ICU would use the process default locale or root
        } else if (status == U_USING_FALLBACK_WARNING) {
            result = HM_LOCALE_DATA_FALLBACK;
        }
        UErrorCode found = U_ZERO_ERROR;
        const char *name = bundle != nullptr ? ures_getLocaleByType(bundle, ULOC_ACTUAL_LOCALE, &found) : nullptr;
        if (cap > 0) actual[0] = 0;
        if (name != nullptr && U_SUCCESS(found)) copyOut(name, actual, cap);
        if (bundle != nullptr) ures_close(bundle);
        return result;
    } catch (...) {
        return HM_LOCALE_DATA_NONE;
    }
}

extern "C" hm_plural *hm_plural_open(const char *locale, int32_t locale_len, bool ordinal, hm_error *err) {
    std::memset(err, 0, sizeof(*err));
    try {
        icu::Locale parsed;
        if (!parseTag(locale, locale_len, parsed)) {
            fillError(err, HM_ERR_INVALID_LOCALE, -1, -1, U_ILLEGAL_ARGUMENT_ERROR);
            return nullptr;
        }
        UErrorCode status = U_ZERO_ERROR;
        auto plural = std::make_unique<hm_plural>();
        plural->rules.reset(
            icu::PluralRules::forLocale(parsed, ordinal ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, status));
        std::unique_ptr<icu::StringEnumeration> keywords(
            U_SUCCESS(status) ? plural->rules->getKeywords(status) : nullptr);
        if (U_FAILURE(status) || keywords == nullptr) {
            fillError(err, HM_ERR_INTERNAL, -1, -1, U_FAILURE(status) ? status : U_MEMORY_ALLOCATION_ERROR);
            return nullptr;
        }
        while (const icu::UnicodeString *keyword = keywords->snext(status)) {
            if (U_FAILURE(status)) break;
            plural->categories |= 1 << categoryOf(*keyword);
        }
        return plural.release();
    } catch (...) {
        fillError(err, HM_ERR_INTERNAL, -1, -1, U_MEMORY_ALLOCATION_ERROR);
        return nullptr;
    }
}

extern "C" void hm_plural_close(hm_plural *p) { delete p; }

extern "C" int32_t hm_plural_select(const hm_plural *p, double number) {
    try {
        return categoryOf(p->rules->select(number));
    } catch (...) {
        return HM_PLURAL_OTHER;
    }
}

extern "C" int32_t hm_plural_categories(const hm_plural *p) { return p->categories; }
