#include "core/threads.h"

#include <tbb/info.h>

namespace chess {

int resolve_threads(int requested) { return requested > 0 ? requested : tbb::info::default_concurrency(); }

}  // namespace chess
