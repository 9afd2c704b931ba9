// Internal C++ declarations shared by the message_*.cpp files of the facade. Never included by Swift.
#pragma once
#include "herald_message.h"

#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/unistr.h>
#include <unicode/utypes.h>

#include <memory>
#include <string>
#include <vector>

namespace herald {

constexpr int32_t kAcceptString = 1 << HM_VALUE_STRING;
constexpr int32_t kAcceptInt = 1 << HM_VALUE_INT;
constexpr int32_t kAcceptDouble = 1 << HM_VALUE_DOUBLE;
constexpr int32_t kAcceptDate = 1 << HM_VALUE_DATE;
constexpr int32_t kAcceptNumber = kAcceptInt | kAcceptDouble;
constexpr int32_t kAcceptAny = kAcceptString | kAcceptNumber | kAcceptDate;

// One argument name of a template with everything formatting needs to know about it.
struct Argument {
    std::string name;  // UTF-8, handed to Swift
    int32_t kind = HM_KIND_PLAIN;
    int32_t accepts = kAcceptAny;
    bool nested = true;
};

// A failure found while validating, before it is copied into an hm_error.
struct Failure {
    int32_t code = HM_ERR_NONE;
    int32_t offset16 = -1;  // UTF-16 index into the pattern, converted to scalars at the boundary
    UErrorCode icu = U_ZERO_ERROR;
    bool failed() const { return code != HM_ERR_NONE; }
};

// What the structural scan learned about a pattern; used to place errors ICU reports at offset 0.
struct Structure {
    int32_t unclosedBrace = -1;     // innermost '{' that is never closed
    int32_t missingOther = -1;      // first plural/select (in ICU's order) without `other`
    int32_t tooDeep = -1;           // first '{' that opens an argument nested too deeply
    // Where the styles of never-closed plural/select arguments start: ICU reports a pattern that ends inside one
    // as a syntax error at that place, which is really an unmatched brace.
    std::vector<int32_t> unclosedStyles;
};

// Scans `pattern` with ICU's quoting rules, without recursion beyond the depth limit.
Structure scanStructure(const icu::UnicodeString &pattern);

// Parses with MessagePattern and checks what ICU accepts silently; fills `arguments` on success.
Failure analyze(const icu::UnicodeString &pattern, const Structure &structure, std::vector<Argument> &arguments);

// Finds the argument whose own format ICU refused to build, after MessageFormat failed with `icu`.
Failure locateFormatFailure(const icu::UnicodeString &pattern, const icu::Locale &locale, UErrorCode icu);

// Copies a failure into the C error struct.
void fillError(hm_error *err, int32_t code, int32_t offset, int32_t argument, UErrorCode icu);

// Scalar offset of a UTF-16 index, or -1.
int32_t scalarOffset(const icu::UnicodeString &pattern, int32_t offset16);

}  // namespace herald

// The handle behind hm_message.
struct hm_message {
    std::unique_ptr<icu::MessageFormat> format;
    std::vector<herald::Argument> arguments;
    std::vector<icu::UnicodeString> names;  // argument names in table order, contiguous as format() wants them
    // Scratch space reused by every format call (a handle is single-threaded anyway): building sixteen ICU objects
    // per call showed up in profiles.
    std::vector<icu::Formattable> values;
    std::vector<icu::UnicodeString> presentNames;
    icu::UnicodeString output;
};
