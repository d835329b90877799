/*
 * OA_ASAN: defined to 1 when the translation unit is built with AddressSanitizer, by gcc (which defines
 * __SANITIZE_ADDRESS__) or by clang (which only answers __has_feature(address_sanitizer)). Code that trades
 * the sanitizer's checks for speed (anonymous mappings instead of the heap) keeps the checks under it.
 */
#ifndef OA_BASE_SANITIZER_H
#define OA_BASE_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define OA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OA_ASAN 1
#endif
#endif

#endif /* OA_BASE_SANITIZER_H */
