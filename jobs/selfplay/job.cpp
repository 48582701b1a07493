#include "jobs/selfplay/job.h"

#include <sstream>

#include "jobs/rules/job.h"
#include "jobs/selfplay/search_player.h"

namespace chesshpc {

std::string SelfplayRequest::identity() const {
  std::ostringstream s;
  auto player = [&](const char* key, const PlayerSpec& p) {
    s << ";" << key << "=" << p.label();
    for (const auto& [name, value] : p.options) s << "," << name << "=" << value;
  };
  s << "games=" << games << ";seed=" << seed << ";book=" << book << ";book_hash=" << book_digest
    << ";book_order=" << (book_order == BookOrder::RANDOM ? "random" : "sequential") << ";random_plies="
    << random_plies
    // Only a variant is named: standard batches keep the identity of parts written before.
    << (variant == Variant::STANDARD ? "" : ";variant=" + std::string(variant_name(variant)))
    << ";ruleset=" << ruleset_name(ruleset) << ";claims=" << claims_name(claims);
  const Adjudication& a = adjudication;
  s << ";resign=" << a.resign_score << "/" << a.resign_moves << (a.resign_two_sided ? "/two-sided" : "/one-sided")
    << ";draw=" << a.draw_score << "/" << a.draw_moves << "/from-move-" << a.draw_after_move
    << ";max_plies=" << a.max_plies << ";clock=" << clock.base_ms << "+" << clock.increment_ms
    << ";nodes=" << limits.nodes << ";depth=" << limits.depth << ";movetime=" << limits.movetime_ms;
  player("first", first);
  player("second", second);
  s << ";hash=" << hash_bytes << ";temperature=" << temperature << ";sample_plies=" << sample_plies;
  return s.str();
}

}  // namespace chesshpc

namespace chesshpc {

std::string player_settings(const PlayerSpec& p, const SelfplayRequest& req) {
  std::ostringstream s;
  s << p.label();
  if (req.clock.on())
    s << " tc=" << req.clock.base_ms << "+" << req.clock.increment_ms << "ms";
  else if (req.limits.nodes)
    s << " nodes=" << req.limits.nodes;
  else if (req.limits.depth)
    s << " depth=" << req.limits.depth;
  else
    s << " movetime=" << req.limits.movetime_ms << "ms";
  if (p.command.empty()) {
    s << " hash=" << req.hash_bytes;
    if (req.temperature > 0) s << " temperature=" << req.temperature << " sample_plies=" << req.sample_plies;
  }
  for (const auto& [name, value] : p.options) s << " " << name << "=" << value;
  return s.str();
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec, const SelfplayRequest& req) {
  if (spec.command.empty())
    return std::make_unique<SearchPlayer>(req.limits, req.hash_bytes, req.temperature, req.sample_plies);
  return std::make_unique<UciPlayer>(spec.command, spec.options, req.limits, req.variant != Variant::STANDARD);
}

}  // namespace chesshpc
