// Compiled message templates: validation, the argument table, and formatting with named arguments.
//
// No C++ exception may unwind into Swift, so every entry point catches everything and reports HM_ERR_INTERNAL.
#include "message_internal.h"

#include <unicode/locid.h>
#include <unicode/timezone.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

#include <cstring>

using herald::Failure;
using herald::fillError;
using icu::UnicodeString;

static_assert(HM_KIND_PLAIN == 0 && HM_KIND_SELECTORDINAL == 6, "kinds are mirrored in Swift");

namespace {

void clearError(hm_error *err) {
    if (err == nullptr) return;
    std::memset(err, 0, sizeof(*err));
    err->offset = -1;
    err->argument = -1;
}

// Only system ids pass: ICU maps anything else to "Etc/Unknown", i.e. UTC, silently.
bool isSystemTimeZone(const UnicodeString &id) {
    UErrorCode status = U_ZERO_ERROR;
    UnicodeString canonical;
    UBool isSystem = false;
    icu::TimeZone::getCanonicalID(id, canonical, isSystem, status);
    return U_SUCCESS(status) && isSystem;
}

// The locale that carries the zone: MessageFormat builds every date format, nested ones included, from its locale,
// and SimpleDateFormat takes its calendar's zone from the `timezone` keyword. There is no other way to reach them.
bool localeFor(const char *tag, int32_t tagLength, const char *zone, int32_t zoneLength, icu::Locale &out,
               hm_error *err) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(icu::StringPiece(tag, tagLength), status);
    if (U_FAILURE(status) || locale.isBogus()) {
        fillError(err, HM_ERR_INVALID_LOCALE, -1, -1, status);
        return false;
    }
    if (zoneLength > 0) {
        std::string id(zone, static_cast<size_t>(zoneLength));
        if (!isSystemTimeZone(UnicodeString::fromUTF8(id))) {
            fillError(err, HM_ERR_UNKNOWN_TIME_ZONE, -1, -1, U_ILLEGAL_ARGUMENT_ERROR);
            return false;
        }
        locale.setKeywordValue("timezone", id.c_str(), status);
        if (U_FAILURE(status)) {
            fillError(err, HM_ERR_UNKNOWN_TIME_ZONE, -1, -1, status);
            return false;
        }
    }
    out = locale;
    return true;
}

hm_message *open(const char *pattern, int32_t patternLength, const icu::Locale &locale, hm_error *err) {
    if (patternLength > HM_MAX_PATTERN_BYTES) {
        UnicodeString head = UnicodeString::fromUTF8(icu::StringPiece(pattern, HM_MAX_PATTERN_BYTES));
        fillError(err, HM_ERR_TOO_LONG, head.countChar32(), -1, U_ZERO_ERROR);
        return nullptr;
    }
    UnicodeString text = UnicodeString::fromUTF8(icu::StringPiece(pattern, patternLength));
    herald::Structure structure = herald::scanStructure(text);
    if (structure.tooDeep >= 0) {
        fillError(err, HM_ERR_TOO_DEEP, herald::scalarOffset(text, structure.tooDeep), -1, U_ZERO_ERROR);
        return nullptr;
    }
    std::vector<herald::Argument> arguments;
    Failure failure = herald::analyze(text, structure, arguments);
    std::unique_ptr<icu::MessageFormat> format;
    if (!failure.failed()) {
        UErrorCode status = U_ZERO_ERROR;
        UParseError perror;
        format = std::make_unique<icu::MessageFormat>(text, locale, perror, status);
        if (U_FAILURE(status)) failure = herald::locateFormatFailure(text, locale, status);
    }
    if (failure.failed()) {
        fillError(err, failure.code, herald::scalarOffset(text, failure.offset16), -1, failure.icu);
        return nullptr;
    }
    auto message = std::make_unique<hm_message>();
    message->format = std::move(format);
    for (const auto &argument : arguments) message->names.push_back(UnicodeString::fromUTF8(argument.name));
    message->arguments = std::move(arguments);
    message->values.resize(message->arguments.size());
    message->presentNames.resize(message->arguments.size());
    return message.release();
}

// Sets `slot` from `value` if the argument accepts that kind of value.
bool assign(icu::Formattable &slot, const hm_value &value, const char *blob, int32_t accepts) {
    if (value.kind < HM_VALUE_STRING || value.kind > HM_VALUE_DATE || (accepts & (1 << value.kind)) == 0) {
        return false;
    }
    switch (value.kind) {
    case HM_VALUE_STRING:
        slot.setString(UnicodeString::fromUTF8(icu::StringPiece(blob + value.str_off, value.str_len)));
        break;
    case HM_VALUE_INT:
        slot.setInt64(value.i64);
        break;
    case HM_VALUE_DOUBLE:
        slot.setDouble(value.f64);
        break;
    default:
        slot.setDate(value.f64);
        break;
    }
    return true;
}

}  // namespace

extern "C" int32_t hm_icu_version(char *out, int32_t cap) {
    UVersionInfo version;
    u_getVersion(version);
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(version, text);
    int32_t length = static_cast<int32_t>(std::strlen(text));
    if (cap <= 0) return 0;
    if (length >= cap) length = cap - 1;
    std::memcpy(out, text, static_cast<size_t>(length));
    out[length] = 0;
    return length;
}

extern "C" hm_message *hm_message_open(const char *pattern, int32_t pattern_len, const char *locale,
                                       int32_t locale_len, const char *time_zone, int32_t time_zone_len,
                                       hm_error *err) {
    clearError(err);
    try {
        icu::Locale resolved;
        if (!localeFor(locale, locale_len, time_zone, time_zone_len, resolved, err)) return nullptr;
        return open(pattern, pattern_len, resolved, err);
    } catch (...) {
        fillError(err, HM_ERR_INTERNAL, -1, -1, U_MEMORY_ALLOCATION_ERROR);
        return nullptr;
    }
}

extern "C" void hm_message_close(hm_message *m) { delete m; }

extern "C" int32_t hm_message_argument_count(const hm_message *m) {
    return static_cast<int32_t>(m->arguments.size());
}

extern "C" bool hm_message_argument_at(const hm_message *m, int32_t index, hm_argument_info *out) {
    if (index < 0 || index >= static_cast<int32_t>(m->arguments.size())) return false;
    const herald::Argument &argument = m->arguments[static_cast<size_t>(index)];
    out->name = argument.name.data();
    out->name_len = static_cast<int32_t>(argument.name.size());
    out->kind = argument.kind;
    out->accepts = argument.accepts;
    out->nested = argument.nested;
    return true;
}

extern "C" int32_t hm_message_format(hm_message *m, const char *blob, const hm_value *values, int32_t count,
                                     char *out, int32_t cap, hm_error *err) {
    clearError(err);
    try {
        if (count != static_cast<int32_t>(m->arguments.size())) {
            fillError(err, HM_ERR_INTERNAL, -1, -1, U_ILLEGAL_ARGUMENT_ERROR);
            return -1;
        }
        icu::Formattable *formattables = m->values.data();
        // Missing values are left out, so ICU prints `{name}` visibly instead of failing.
        int32_t present = 0;
        for (int32_t i = 0; i < count; ++i) {
            if (values[i].kind == HM_VALUE_MISSING) continue;
            if (!assign(formattables[present], values[i], blob, m->arguments[static_cast<size_t>(i)].accepts)) {
                fillError(err, HM_ERR_BAD_ARGUMENT_VALUE, -1, i, U_ILLEGAL_ARGUMENT_ERROR);
                return -1;
            }
            ++present;
        }
        const UnicodeString *argumentNames = m->names.data();
        if (present != count) {
            size_t j = 0;
            for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
                if (values[i].kind != HM_VALUE_MISSING) m->presentNames[j++] = m->names[i];
            }
            argumentNames = m->presentNames.data();
        }
        UErrorCode status = U_ZERO_ERROR;
        m->output.remove();
        m->format->format(argumentNames, formattables, present, m->output, status);
        if (U_FAILURE(status)) {
            fillError(err, HM_ERR_INTERNAL, -1, -1, status);
            return -1;
        }
        int32_t needed = 0;
        UErrorCode converted = U_ZERO_ERROR;
        u_strToUTF8(out, cap, &needed, m->output.getBuffer(), m->output.length(), &converted);
        if (U_FAILURE(converted) && converted != U_BUFFER_OVERFLOW_ERROR) {
            fillError(err, HM_ERR_INTERNAL, -1, -1, converted);
            return -1;
        }
        return needed;
    } catch (...) {
        fillError(err, HM_ERR_INTERNAL, -1, -1, U_MEMORY_ALLOCATION_ERROR);
        return -1;
    }
}
