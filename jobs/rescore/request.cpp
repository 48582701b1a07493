#include "jobs/rescore/request.h"

namespace chesshpc {

std::string RescoreRequest::identity() const {
  return "in=" + in + ";player=" + player() + ";positions_per_unit=" + std::to_string(positions_per_unit);
}

}  // namespace chesshpc
