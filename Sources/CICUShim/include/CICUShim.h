/* Opaque C facade over the system ICU.
 * RULE: no header reachable from here includes an ICU header or names an ICU type, because Swift modules that
 * import this facade also import Foundation, whose bundled ICU would clash with the system one. */
#pragma once
#include "herald_zone.h"
#include "herald_message.h"
