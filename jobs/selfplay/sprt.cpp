#include "jobs/selfplay/sprt.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace chesshpc {

namespace {

constexpr double Z95 = 1.959963984540054;  // the normal distribution's 97.5% quantile
constexpr double REGULARISE = 1e-3;        // a count of zero, for the LLR's variance

// A pair's five outcomes as the first player's score per game.
constexpr std::array<double, 5> PAIR_SCORE = {0, 0.25, 0.5, 0.75, 1};

struct Moments {
  double n = 0, mean = 0, variance = 0;  // pairs, and the per-game score's mean and variance over them
};

// floor: the least count an outcome is taken to have (0, or REGULARISE for the LLR).
Moments moments(const Pentanomial& p, double floor) {
  Moments m;
  for (size_t i = 0; i < 5; ++i) {
    double c = std::max(double(p.counts[i]), floor);
    m.n += c, m.mean += c * PAIR_SCORE[i];
  }
  m.mean /= m.n;
  for (size_t i = 0; i < 5; ++i) {
    double c = std::max(double(p.counts[i]), floor), d = PAIR_SCORE[i] - m.mean;
    m.variance += c * d * d;
  }
  m.variance /= m.n;
  return m;
}

// Both games' points, or none when either has none.
std::optional<double> pair_points(std::optional<double> even, std::optional<double> odd) {
  if (!even || !odd) return std::nullopt;
  return *even + *odd;
}

}  // namespace

double elo_of_score(double score) { return -400 * std::log10(1 / score - 1); }

double score_of_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

PairScore pair_score(const Pentanomial& p) {
  const double nan = std::nan("");
  if (p.pairs() == 0) return {nan, nan, nan, nan, nan, nan};
  Moments m = moments(p, 0);
  const double half = Z95 * std::sqrt(m.variance / m.n);
  PairScore s{m.mean, std::max(m.mean - half, 0.0), std::min(m.mean + half, 1.0), 0, 0, 0};
  s.elo = elo_of_score(s.score), s.elo_low = elo_of_score(s.score_low), s.elo_high = elo_of_score(s.score_high);
  return s;
}

double SprtSpec::lower() const { return std::log(beta / (1 - alpha)); }

double SprtSpec::upper() const { return std::log((1 - beta) / alpha); }

std::string SprtSpec::text() const {
  std::ostringstream s;
  s << "elo0=" << elo0 << " elo1=" << elo1 << " alpha=" << alpha << " beta=" << beta;
  return s.str();
}

double sprt_llr(const Pentanomial& p, const SprtSpec& s) {
  if (p.pairs() == 0) return 0;
  Moments m = moments(p, REGULARISE);
  const double s0 = score_of_elo(s.elo0), s1 = score_of_elo(s.elo1);
  return m.n * (s1 - s0) * (2 * m.mean - s0 - s1) / (2 * m.variance);
}

std::string llr_text(double llr, const SprtSpec& s) {
  char text[96];
  std::snprintf(text, sizeof text, "LLR %.2f [%.2f, %.2f]", llr, s.lower(), s.upper());
  return text;
}

const char* sprt_decision_name(SprtDecision d) {
  return d == SprtDecision::H0 ? "H0" : d == SprtDecision::H1 ? "H1" : "none";
}

void PairSequence::add(uint64_t game, std::optional<double> first_points) {
  if (decision_ != SprtDecision::NONE) return;
  waiting_[game] = first_points;
  for (;;) {
    auto even = waiting_.find(2 * next_pair_), odd = waiting_.find(2 * next_pair_ + 1);
    if (even == waiting_.end() || odd == waiting_.end()) return;
    std::optional<double> points = pair_points(even->second, odd->second);
    waiting_.erase(even), waiting_.erase(odd);
    ++next_pair_;
    if (!points) continue;
    counted_.add(*points);
    llr_ = sprt_llr(counted_, spec_);
    if (llr_ <= spec_.lower() || llr_ >= spec_.upper()) {
      decision_ = llr_ >= spec_.upper() ? SprtDecision::H1 : SprtDecision::H0;
      waiting_.clear();
      return;
    }
  }
}

std::optional<double> first_player_points(uint64_t game, const std::string& result) {
  if (result != "1-0" && result != "0-1" && result != "1/2-1/2") return std::nullopt;
  const double white = result == "1-0" ? 1 : result == "0-1" ? 0 : 0.5;
  return game % 2 == 0 ? white : 1 - white;
}

Pentanomial pentanomial_of(const std::vector<uint64_t>& game, const std::vector<std::string>& result) {
  std::map<uint64_t, std::optional<double>> points;
  for (size_t i = 0; i < game.size(); ++i) points[game[i]] = first_player_points(game[i], result[i]);
  Pentanomial p;
  for (const auto& [g, pts] : points) {
    if (g % 2) continue;
    auto odd = points.find(g + 1);
    if (odd == points.end()) continue;
    if (std::optional<double> both = pair_points(pts, odd->second)) p.add(*both);
  }
  return p;
}

}  // namespace chesshpc
