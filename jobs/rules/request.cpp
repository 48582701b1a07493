#include "jobs/rules/request.h"

namespace chesshpc {

std::optional<chess::Ruleset> parse_ruleset(std::string_view s) {
  if (s == "fide") return chess::Ruleset::FIDE;
  if (s == "site") return chess::Ruleset::SITE;
  return std::nullopt;
}

std::optional<chess::ClaimPolicy> parse_claims(std::string_view s) {
  if (s == "first") return chess::ClaimPolicy::FIRST;
  if (s == "never") return chess::ClaimPolicy::NEVER;
  return std::nullopt;
}

std::string_view ruleset_name(chess::Ruleset r) { return r == chess::Ruleset::FIDE ? "fide" : "site"; }
std::string_view claims_name(chess::ClaimPolicy c) { return c == chess::ClaimPolicy::FIRST ? "first" : "never"; }

}  // namespace chesshpc
