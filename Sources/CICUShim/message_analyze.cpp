// Validation beyond what ICU's MessageFormat rejects by itself, the argument table, and error placement.
#include "message_internal.h"

#include <unicode/numberformatter.h>
#include <unicode/parseerr.h>

#include <cstring>

namespace herald {
namespace {

using icu::MessagePattern;
using icu::UnicodeString;

struct Usage {
    int32_t kind;
    int32_t accepts;
};

// The kind of a simple argument (`{x, type}`), or -1 for a type MessageFormat does not know.
int32_t simpleKind(UnicodeString type) {
    type.toLower("");  // MessageFormat matches type names case-insensitively
    if (type == u"number" || type == u"spellout" || type == u"ordinal" || type == u"duration") return HM_KIND_NUMBER;
    if (type == u"date") return HM_KIND_DATE;
    if (type == u"time") return HM_KIND_TIME;
    return -1;
}

int32_t acceptsFor(int32_t kind) {
    switch (kind) {
    case HM_KIND_NUMBER:
    case HM_KIND_PLURAL:
    case HM_KIND_SELECTORDINAL:
        return kAcceptNumber;
    case HM_KIND_DATE:
    case HM_KIND_TIME:
        return kAcceptDate;
    case HM_KIND_SELECT:
        return kAcceptString;  // SelectFormat only takes strings
    default:
        return kAcceptAny;
    }
}

bool isPluralCategory(const UnicodeString &s) {
    return s == u"zero" || s == u"one" || s == u"two" || s == u"few" || s == u"many" || s == u"other";
}

// A plural/select argument whose selectors are being collected.
struct OpenChoice {
    int32_t limitPart;
    bool plural;
    std::vector<UnicodeString> selectors;
};

Failure fail(int32_t code, int32_t offset16, UErrorCode icu = U_ZERO_ERROR) {
    Failure f;
    f.code = code;
    f.offset16 = offset16;
    f.icu = icu;
    return f;
}

// Offset of the type keyword of the argument starting at `argStart` (for complex arguments, which have no part).
int32_t typeOffset(const UnicodeString &pattern, int32_t nameLimit) {
    int32_t comma = pattern.indexOf(u',', nameLimit);
    if (comma < 0) return nameLimit;
    int32_t i = comma + 1;
    while (i < pattern.length() && pattern.charAt(i) == u' ') ++i;
    return i;
}

// Records one use of `name`; fails when its accepted values no longer overlap with the earlier uses.
Failure record(std::vector<Argument> &arguments, const UnicodeString &name, Usage usage, bool nested,
               int32_t offset16) {
    for (auto &argument : arguments) {
        if (UnicodeString::fromUTF8(argument.name) != name) continue;
        int32_t accepts = argument.accepts & usage.accepts;
        if (accepts == 0) return fail(HM_ERR_CONFLICTING_KINDS, offset16);
        argument.accepts = accepts;
        if (argument.kind == HM_KIND_PLAIN) argument.kind = usage.kind;
        argument.nested = argument.nested && nested;
        return Failure();
    }
    Argument argument;
    name.toUTF8String(argument.name);
    argument.kind = usage.kind;
    argument.accepts = usage.accepts;
    argument.nested = nested;
    arguments.push_back(std::move(argument));
    return Failure();
}

// Checks a `::` number skeleton so its error lands on the exact character.
Failure checkSkeleton(const UnicodeString &style, int32_t styleOffset16) {
    int32_t lead = 0;
    while (lead < style.length() && style.charAt(lead) == u' ') ++lead;
    UnicodeString trimmed(style, lead);
    trimmed.trim();
    UParseError perror;
    perror.offset = -1;
    UErrorCode status = U_ZERO_ERROR;
    icu::number::NumberFormatter::forSkeleton(trimmed.tempSubString(2), perror, status);
    if (U_SUCCESS(status)) return Failure();
    int32_t inside = perror.offset >= 0 ? perror.offset : 0;
    return fail(HM_ERR_BAD_SKELETON, styleOffset16 + lead + 2 + inside, status);
}

// Selector rules ICU does not enforce: CLDR category names for plurals, no duplicates anywhere.
Failure checkSelector(OpenChoice &choice, const UnicodeString &selector, int32_t offset16) {
    if (choice.plural && selector.charAt(0) != u'=' && !isPluralCategory(selector)) {
        return fail(HM_ERR_UNKNOWN_PLURAL_CATEGORY, offset16);
    }
    for (const auto &seen : choice.selectors) {
        if (seen == selector) return fail(HM_ERR_DUPLICATE_SELECTOR, offset16);
    }
    choice.selectors.push_back(selector);
    return Failure();
}

}  // namespace

Failure analyze(const UnicodeString &pattern, const Structure &structure, std::vector<Argument> &arguments) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError perror;
    perror.offset = -1;
    MessagePattern parsed(pattern, &perror, status);
    if (U_FAILURE(status)) {
        switch (status) {
        case U_UNMATCHED_BRACES:
            return fail(HM_ERR_UNMATCHED_BRACES, structure.unclosedBrace >= 0 ? structure.unclosedBrace : 0, status);
        case U_DEFAULT_KEYWORD_MISSING:
            return fail(HM_ERR_MISSING_OTHER, structure.missingOther >= 0 ? structure.missingOther : 0, status);
        default:
            for (int32_t style : structure.unclosedStyles) {
                if (status == U_PATTERN_SYNTAX_ERROR && style == perror.offset && structure.unclosedBrace >= 0) {
                    return fail(HM_ERR_UNMATCHED_BRACES, structure.unclosedBrace, U_UNMATCHED_BRACES);
                }
            }
            return fail(HM_ERR_SYNTAX, perror.offset >= 0 ? perror.offset : 0, status);
        }
    }
    std::vector<OpenChoice> open;
    int32_t count = parsed.countParts();
    for (int32_t i = 0; i < count; ++i) {
        const MessagePattern::Part &part = parsed.getPart(i);
        UMessagePatternPartType type = part.getType();
        if (type == UMSGPAT_PART_TYPE_ARG_LIMIT) {
            if (!open.empty() && open.back().limitPart == i) open.pop_back();
            continue;
        }
        if (type == UMSGPAT_PART_TYPE_ARG_SELECTOR) {
            if (open.empty()) continue;  // choice selectors; choice is rejected at its start
            Failure f = checkSelector(open.back(), parsed.getSubstring(part), part.getIndex());
            if (f.failed()) return f;
            continue;
        }
        if (type != UMSGPAT_PART_TYPE_ARG_START) continue;

        const MessagePattern::Part &namePart = parsed.getPart(i + 1);
        UnicodeString name = parsed.getSubstring(namePart);
        bool nested = !open.empty();
        Usage usage{HM_KIND_PLAIN, kAcceptAny};
        switch (part.getArgType()) {
        case UMSGPAT_ARG_TYPE_NONE:
            break;
        case UMSGPAT_ARG_TYPE_SIMPLE: {
            const MessagePattern::Part &typePart = parsed.getPart(i + 2);
            int32_t kind = simpleKind(parsed.getSubstring(typePart));
            if (kind < 0) return fail(HM_ERR_UNKNOWN_ARGUMENT_TYPE, typePart.getIndex());
            usage = Usage{kind, acceptsFor(kind)};
            const MessagePattern::Part &stylePart = parsed.getPart(i + 3);
            if (kind == HM_KIND_NUMBER && stylePart.getType() == UMSGPAT_PART_TYPE_ARG_STYLE) {
                UnicodeString style = parsed.getSubstring(stylePart);
                UnicodeString trimmed(style);
                if (trimmed.trim().startsWith(u"::")) {
                    Failure f = checkSkeleton(style, stylePart.getIndex());
                    if (f.failed()) return f;
                }
            }
            break;
        }
        case UMSGPAT_ARG_TYPE_CHOICE:
            return fail(HM_ERR_UNSUPPORTED_ARGUMENT, typeOffset(pattern, namePart.getLimit()));
        case UMSGPAT_ARG_TYPE_PLURAL:
            usage = Usage{HM_KIND_PLURAL, acceptsFor(HM_KIND_PLURAL)};
            open.push_back(OpenChoice{parsed.getLimitPartIndex(i), true, {}});
            break;
        case UMSGPAT_ARG_TYPE_SELECTORDINAL:
            usage = Usage{HM_KIND_SELECTORDINAL, acceptsFor(HM_KIND_SELECTORDINAL)};
            open.push_back(OpenChoice{parsed.getLimitPartIndex(i), true, {}});
            break;
        case UMSGPAT_ARG_TYPE_SELECT:
            usage = Usage{HM_KIND_SELECT, acceptsFor(HM_KIND_SELECT)};
            open.push_back(OpenChoice{parsed.getLimitPartIndex(i), false, {}});
            break;
        }
        Failure f = record(arguments, name, usage, nested, namePart.getIndex());
        if (f.failed()) return f;
    }
    return Failure();
}

Failure locateFormatFailure(const UnicodeString &pattern, const icu::Locale &locale, UErrorCode icu) {
    UErrorCode status = U_ZERO_ERROR;
    MessagePattern parsed(pattern, nullptr, status);
    if (U_FAILURE(status)) return fail(HM_ERR_INTERNAL, -1, icu);
    // Compile each simple argument on its own: the first one ICU refuses is the culprit.
    int32_t count = parsed.countParts();
    for (int32_t i = 0; i < count; ++i) {
        const MessagePattern::Part &part = parsed.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_ARG_START || part.getArgType() != UMSGPAT_ARG_TYPE_SIMPLE) continue;
        int32_t limit = parsed.getPart(parsed.getLimitPartIndex(i)).getLimit();
        UnicodeString alone = pattern.tempSubString(part.getIndex(), limit - part.getIndex());
        UErrorCode own = U_ZERO_ERROR;
        UParseError perror;
        icu::MessageFormat probe(alone, locale, perror, own);
        if (U_SUCCESS(own)) continue;
        const MessagePattern::Part &stylePart = parsed.getPart(i + 3);
        bool hasStyle = stylePart.getType() == UMSGPAT_PART_TYPE_ARG_STYLE;
        UnicodeString style = hasStyle ? parsed.getSubstring(stylePart) : UnicodeString();
        int32_t offset = part.getIndex();
        if (hasStyle) {
            int32_t lead = 0;  // point at the style itself, not the blank after the comma
            while (lead < style.length() && style.charAt(lead) == u' ') ++lead;
            offset = stylePart.getIndex() + lead;
        }
        bool skeleton = style.trim().startsWith(u"::") || own == U_NUMBER_SKELETON_SYNTAX_ERROR;
        return fail(skeleton ? HM_ERR_BAD_SKELETON : HM_ERR_BAD_STYLE, offset, own);
    }
    return fail(HM_ERR_INTERNAL, -1, icu);
}

int32_t scalarOffset(const UnicodeString &pattern, int32_t offset16) {
    if (offset16 < 0) return -1;
    if (offset16 > pattern.length()) offset16 = pattern.length();
    return pattern.countChar32(0, offset16);
}

void fillError(hm_error *err, int32_t code, int32_t offset, int32_t argument, UErrorCode icu) {
    if (err == nullptr) return;
    err->code = code;
    err->offset = offset;
    err->argument = argument;
    err->icu_code = static_cast<int32_t>(icu);
    const char *name = u_errorName(icu);
    std::strncpy(err->icu_name, name, sizeof(err->icu_name) - 1);
    err->icu_name[sizeof(err->icu_name) - 1] = 0;
}

}  // namespace herald
