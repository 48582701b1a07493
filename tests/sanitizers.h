// Whether this build runs under AddressSanitizer (scripts/sanitize.sh): ASan reserves
// terabytes of address space for its shadow memory at start, so a test that caps the
// address space (prlimit --as) to make an allocation fail cannot run the program at all.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define CHESSHPC_TESTS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHESSHPC_TESTS_UNDER_ASAN 1
#endif
#endif

#ifdef CHESSHPC_TESTS_UNDER_ASAN
#define SKIP_UNDER_ASAN_WITH_ADDRESS_LIMIT() \
  GTEST_SKIP() << "an address-space limit leaves AddressSanitizer no room for its shadow memory"
#else
#define SKIP_UNDER_ASAN_WITH_ADDRESS_LIMIT() (void)0
#endif
