/*
 * Helpers of the ABI freeze programs (tests/abi/abi_*.c): C11 compile-time
 * checks plus a small runtime part for values that C cannot check at
 * compile time ("static const" objects, string contents).
 *
 * The expectations are those of x86-64 / aarch64 Linux (LP64).
 */
#ifndef OA_TESTS_ABI_CHECK_H
#define OA_TESTS_ABI_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Deprecated functions and enumerators are part of the ABI and are referenced on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

_Static_assert(sizeof(void *) == 8 && sizeof(long) == 8 && sizeof(int) == 4, "ABI expectations assume LP64");

/* An integer constant expression has the given value. */
#define ABI_VALUE(expr, value) _Static_assert((expr) == (value), #expr " == " #value)

/* An expression has exactly the given type (after lvalue conversion). */
#define ABI_TYPE(expr, type) _Static_assert(_Generic((expr), type : 1, default : 0), #expr " has type " #type)

/* A macro has the given value and type. */
#define ABI_MACRO(name, value, type) \
    ABI_VALUE(name, value);          \
    ABI_TYPE(name, type)

/* A string macro has the given length (contents are compared at run time). */
#define ABI_STRING(name, text) _Static_assert(sizeof(name) == sizeof(text), #name " length")

/* Size and alignment of a type. */
#define ABI_SIZE(type, size, align) \
    _Static_assert(sizeof(type) == (size) && _Alignof(type) == (align), "size/alignment of " #type)

/* Offset and type of a member (pointer_type is the type of &object.member). */
#define ABI_FIELD(type, member, offset, pointer_type)                                      \
    _Static_assert(offsetof(type, member) == (offset), "offset of " #type "." #member);    \
    _Static_assert(_Generic(&((type *)0)->member, pointer_type : 1, default : 0), "type of " #type "." #member)

/* A declared function has exactly the given type. */
#define ABI_FUNC(name, pointer_type) \
    _Static_assert(_Generic(&name, pointer_type : 1, default : 0), "signature of " #name)

/* Runtime checks: each returns the number of failures (0 or 1) and says why. */
static inline int abi_check_value(const char *name, long long got, long long want)
{
    if (got == want) {
        return 0;
    }
    fprintf(stderr, "ABI mismatch: %s is %lld, expected %lld\n", name, got, want);
    return 1;
}

static inline int abi_check_string(const char *name, const char *got, const char *want)
{
    if (strcmp(got, want) == 0) {
        return 0;
    }
    fprintf(stderr, "ABI mismatch: %s is \"%s\", expected \"%s\"\n", name, got, want);
    return 1;
}

#define ABI_CHECK_VALUE(name, value) abi_check_value(#name, (long long)(name), (long long)(value))
#define ABI_CHECK_STRING(name, text) abi_check_string(#name, name, text)

static inline int abi_report(int failures)
{
    if (failures != 0) {
        fprintf(stderr, "%d ABI mismatch(es)\n", failures);
        return 1;
    }
    return 0;
}

#endif /* OA_TESTS_ABI_CHECK_H */
