// Hand-offs through TBB made visible to ThreadSanitizer. Debian's libtbb is not built with
// TSan, so the ordering its spawn and wait give (what a thread wrote before spawning a
// task is seen by the task; what the task wrote is seen after the wait) is invisible, and
// memory handed over that way looks unsynchronised. The contract: what a thread did
// before release(key) happens before what another thread does after a later
// acquire(key) with the same key. Call them only where TBB already gives that order;
// they add no synchronisation of their own. Outside a TSan build both are empty inline
// functions: no code.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define CHESS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CHESS_TSAN 1
#endif
#endif

#if defined(CHESS_TSAN)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace chess::tsan {

inline void release([[maybe_unused]] const void* key) {
#if defined(CHESS_TSAN)
  __tsan_release(const_cast<void*>(key));
#endif
}

inline void acquire([[maybe_unused]] const void* key) {
#if defined(CHESS_TSAN)
  __tsan_acquire(const_cast<void*>(key));
#endif
}

}  // namespace chess::tsan
