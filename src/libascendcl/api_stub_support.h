/* Included by the generated api_stubs.c: public declarations plus the not-supported recorder. */
#ifndef OA_API_STUB_SUPPORT_H
#define OA_API_STUB_SUPPORT_H

#include "api_all_headers.h"
#include "base/error.h"

#endif
