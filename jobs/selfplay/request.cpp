#include "jobs/selfplay/request.h"

#include <sstream>

#include "jobs/rules/request.h"

namespace chesshpc {

namespace {

// A clock in an identity: "BASE+INC" (ms), then its periods and margin only when it has
// them, so that batches without keep the identity of parts written before.
std::string clock_identity(const TimeControl& c) {
  std::string s = std::to_string(c.base_ms) + "+" + std::to_string(c.increment_ms);
  if (c.moves) s += "/moves=" + std::to_string(c.moves);
  if (c.margin_ms) s += "/margin=" + std::to_string(c.margin_ms);
  return s;
}

}  // namespace

std::string SelfplayRequest::identity() const {
  std::ostringstream s;
  auto player = [&](const char* key, const PlayerSpec& p) {
    s << ";" << key << "=" << p.label();
    for (const auto& [name, value] : p.options) s << "," << name << "=" << value;
    // Only what --engine adds is named: batches without it keep the identity of parts written before.
    if (!p.name.empty()) s << ",name=" << p.name;
    if (!p.dir.empty()) s << ",dir=" << p.dir;
    if (p.own_limits)
      s << ",limits=" << p.limits.nodes << "/" << p.limits.depth << "/" << p.limits.movetime_ms << "/"
        << clock_identity(p.clock);
  };
  s << "games=" << games << ";seed=" << seed << ";book=" << book << ";book_hash=" << book_digest
    << ";book_order=" << (book_order == BookOrder::RANDOM ? "random" : "sequential") << ";random_plies="
    << random_plies
    // Only a start or cut is named: batches without them keep the identity of parts written before.
    << (book_start == 1 ? "" : ";book_start=" + std::to_string(book_start))
    << (book_plies < 0 ? "" : ";book_plies=" + std::to_string(book_plies))
    // Only a variant is named: standard batches keep the identity of parts written before.
    << (variant == Variant::STANDARD ? "" : ";variant=" + std::string(variant_name(variant)))
    << ";ruleset=" << ruleset_name(ruleset) << ";claims=" << claims_name(claims);
  const Adjudication& a = adjudication;
  s << ";resign=" << a.resign_score << "/" << a.resign_moves << (a.resign_two_sided ? "/two-sided" : "/one-sided")
    << ";draw=" << a.draw_score << "/" << a.draw_moves << "/from-move-" << a.draw_after_move << ";max_plies="
    << a.max_plies
    // Only fastchess's rules are named: batches with chesshpc's keep the identity of parts written before.
    << (a.rules == AdjudicationRules::FASTCHESS ? ";adjudicate_as=fastchess" : "") << ";clock=" << clock_identity(clock)
    << ";nodes=" << limits.nodes << ";depth=" << limits.depth << ";movetime=" << limits.movetime_ms;
  player("first", first);
  player("second", second);
  s << ";hash=" << hash_bytes << ";temperature=" << temperature << ";sample_plies=" << sample_plies;
  if (variation > 0) s << ";variation=" << variation;
  if (sprt) s << ";sprt=" << sprt->text();
  return s.str();
}

}  // namespace chesshpc

namespace chesshpc {

std::string player_settings(const PlayerSpec& p, const SelfplayRequest& req) {
  std::ostringstream s;
  const MoveLimits& limits = req.limits_of(p);
  const TimeControl& clock = req.clock_of(p);
  s << p.label();
  // A clock first, then a node or depth limit beside it ("tc=40/60000+0ms nodes=5000").
  if (clock.on()) {
    s << " tc=" << (clock.moves ? std::to_string(clock.moves) + "/" : "") << clock.base_ms << "+" << clock.increment_ms
      << "ms";
    if (clock.margin_ms) s << " timemargin=" << clock.margin_ms << "ms";
  }
  if (limits.nodes)
    s << " nodes=" << limits.nodes;
  else if (limits.depth)
    s << " depth=" << limits.depth;
  else if (!clock.on())
    s << " movetime=" << limits.movetime_ms << "ms";
  if (limits.nodes && req.variation > 0) s << " variation=" << req.variation;
  if (p.command.empty()) {
    s << " hash=" << req.hash_bytes;
    if (req.temperature > 0) s << " temperature=" << req.temperature << " sample_plies=" << req.sample_plies;
  }
  for (const auto& [name, value] : p.options) s << " " << name << "=" << value;
  return s.str();
}

}  // namespace chesshpc
