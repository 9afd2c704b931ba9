// A structural scan of a MessageFormat pattern that follows ICU's quoting rules (apostrophe mode DOUBLE_OPTIONAL).
//
// ICU reports unmatched braces and a missing `other` at offset 0, so this scan finds the real places. It also bounds
// the nesting depth before ICU's recursive parser sees the pattern. Where the syntax confuses it, it falls back to
// plain brace counting: ICU reports those patterns as syntax errors with offsets of its own.
#include "message_internal.h"

namespace herald {
namespace {

constexpr char16_t kApostrophe = u'\'';

// ICU's Pattern_White_Space.
bool isPatternWhiteSpace(char16_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0x200E || c == 0x200F || c == 0x2028 ||
           c == 0x2029;
}

bool isAsciiLetter(char16_t c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }

enum class Parent { none, plural, select };

class Scanner {
public:
    explicit Scanner(const icu::UnicodeString &pattern) : text_(pattern), length_(pattern.length()) {}

    Structure run() {
        message(0, 0, Parent::none, -1);
        return found_;
    }

private:
    const icu::UnicodeString &text_;
    const int32_t length_;
    Structure found_;
    bool stopped_ = false;

    int32_t skipWhiteSpace(int32_t i) const {
        while (i < length_ && isPatternWhiteSpace(text_.charAt(i))) ++i;
        return i;
    }

    // Reads up to white space or a brace (selectors, names, `offset:n`).
    int32_t skipToken(int32_t i) const {
        while (i < length_) {
            char16_t c = text_.charAt(i);
            if (isPatternWhiteSpace(c) || c == u'{' || c == u'}' || c == u',') break;
            ++i;
        }
        return i;
    }

    void unclosed(int32_t brace) {
        if (found_.unclosedBrace < 0) found_.unclosedBrace = brace;
    }

    // After an apostrophe at i-1: returns the index after the literal text it starts, if any.
    int32_t apostrophe(int32_t i, Parent parent) const {
        if (i >= length_) return i;
        char16_t c = text_.charAt(i);
        if (c == kApostrophe) return i + 1;
        if (c != u'{' && c != u'}' && !(parent == Parent::plural && c == u'#')) return i;
        int32_t j = text_.indexOf(kApostrophe, i + 1);
        while (j >= 0 && j + 1 < length_ && text_.charAt(j + 1) == kApostrophe) {
            j = text_.indexOf(kApostrophe, j + 2);
        }
        return j < 0 ? length_ : j + 1;
    }

    // A message (top level, or a branch opened at `openBrace`). Returns the index after its closing brace.
    int32_t message(int32_t i, int32_t depth, Parent parent, int32_t openBrace) {
        while (i < length_ && !stopped_) {
            char16_t c = text_.charAt(i++);
            if (c == kApostrophe) {
                i = apostrophe(i, parent);
            } else if (c == u'{') {
                i = argument(i - 1, depth + 1);
            } else if (c == u'}' && openBrace >= 0) {
                return i;
            }
        }
        if (openBrace >= 0 && !stopped_) unclosed(openBrace);
        return length_;
    }

    // An argument whose '{' is at `start`. Returns the index after its closing brace.
    int32_t argument(int32_t start, int32_t depth) {
        if (depth > HM_MAX_ARGUMENT_DEPTH) {
            found_.tooDeep = start;
            stopped_ = true;
            return length_;
        }
        int32_t i = skipWhiteSpace(skipToken(skipWhiteSpace(start + 1)));
        if (i >= length_) {
            unclosed(start);
            return length_;
        }
        if (text_.charAt(i) == u'}') return i + 1;
        if (text_.charAt(i) != u',') return simpleStyle(i, start);
        int32_t typeStart = skipWhiteSpace(i + 1);
        i = typeStart;
        while (i < length_ && isAsciiLetter(text_.charAt(i))) ++i;
        icu::UnicodeString type = text_.tempSubString(typeStart, i - typeStart);
        type.toLower("");
        i = skipWhiteSpace(i);
        if (i >= length_) {
            unclosed(start);
            return length_;
        }
        if (text_.charAt(i) == u'}') return i + 1;
        if (text_.charAt(i) != u',') return simpleStyle(i, start);
        if (type == u"plural" || type == u"selectordinal") return complexStyle(i + 1, start, depth, Parent::plural);
        if (type == u"select") return complexStyle(i + 1, start, depth, Parent::select);
        return simpleStyle(i + 1, start);
    }

    // A simple style (or anything unparsed): balanced braces, apostrophes quote up to the next apostrophe.
    int32_t simpleStyle(int32_t i, int32_t start) {
        int32_t nested = 0;
        while (i < length_) {
            char16_t c = text_.charAt(i++);
            if (c == kApostrophe) {
                int32_t end = text_.indexOf(kApostrophe, i);
                if (end < 0) return length_;  // ICU: syntax error at the style
                i = end + 1;
            } else if (c == u'{') {
                ++nested;
            } else if (c == u'}') {
                if (nested == 0) return i;
                --nested;
            }
        }
        unclosed(start);
        return length_;
    }

    // The selectors and branches of plural, selectordinal and select.
    int32_t complexStyle(int32_t i, int32_t start, int32_t depth, Parent parent) {
        const int32_t styleStart = i;
        bool hasOther = false;
        while (!stopped_) {
            i = skipWhiteSpace(i);
            if (i >= length_) {
                unclosed(start);
                found_.unclosedStyles.push_back(styleStart);
                return length_;
            }
            if (text_.charAt(i) == u'}') {
                // ICU checks this when the style ends, so inner arguments are reported first, as here.
                if (!hasOther && found_.missingOther < 0) found_.missingOther = start;
                return i + 1;
            }
            int32_t selectorStart = i;
            i = skipToken(i);
            icu::UnicodeString selector = text_.tempSubString(selectorStart, i - selectorStart);
            if (selector.startsWith(u"offset:")) {
                if (selector.length() == 7) i = skipToken(skipWhiteSpace(i));
                continue;
            }
            if (selector == u"other") hasOther = true;
            i = skipWhiteSpace(i);
            if (i >= length_) {
                unclosed(start);
                return length_;
            }
            if (text_.charAt(i) != u'{') return simpleStyle(i, start);
            i = message(i + 1, depth, parent, i);
        }
        return length_;
    }
};

}  // namespace

Structure scanStructure(const icu::UnicodeString &pattern) { return Scanner(pattern).run(); }

}  // namespace herald
