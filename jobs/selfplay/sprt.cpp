#include "jobs/selfplay/sprt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace chesshpc {

namespace {

constexpr double Z95 = 1.959963984540054;               // the normal distribution's 97.5% quantile
constexpr double NELO_PER_T = 800 / 2.302585092994046;  // normalized Elo per t-value: 800 / ln 10

// A pair's five outcomes as the first player's score per game.
constexpr std::array<double, 5> PAIR_SCORE = {0, 0.25, 0.5, 0.75, 1};

using Cells = std::array<double, 5>;

// The counts as frequencies over N pairs, an empty outcome counted as PSEUDO_PAIRS.
struct Frequencies {
  double n = 0;
  Cells f{};
};

Frequencies regularised(const Pentanomial& p) {
  Frequencies r;
  for (size_t i = 0; i < 5; ++i) r.f[i] = p.counts[i] ? double(p.counts[i]) : PSEUDO_PAIRS, r.n += r.f[i];
  for (double& f : r.f) f /= r.n;
  return r;
}

struct Moments {
  double mean = 0, variance = 0;
};

Moments moments(const Cells& q) {
  Moments m;
  for (size_t i = 0; i < 5; ++i) m.mean += q[i] * PAIR_SCORE[i];
  for (size_t i = 0; i < 5; ++i) m.variance += q[i] * (PAIR_SCORE[i] - m.mean) * (PAIR_SCORE[i] - m.mean);
  return m;
}

// The root x of sum f_i g_i / (1 + x g_i) = 0 (the secular equation) where every
// 1 + x g_i > 0: the sum falls from +inf to -inf there, one root. Newton's steps from
// `start` (the root of a nearby g; 0 when it is outside), each cut short so that no
// 1 + x g_i loses more than 90% of itself (a full step can land next to a pole, where
// Newton then crawls), reach it in a few steps. g must straddle 0.
double secular_root(const Cells& f, const Cells& g, double start) {
  double x = start;
  for (double gi : g)
    if (1 + x * gi <= 0) x = 0;
  for (int round = 0; round < 200; ++round) {
    double sum = 0, slope = 0;
    for (size_t i = 0; i < 5; ++i) {
      const double r = g[i] / (1 + x * g[i]);
      sum += f[i] * r, slope -= f[i] * r * r;
    }
    if (sum == 0) return x;
    double step = -sum / slope;
    bool cut = false;
    for (size_t i = 0; i < 5; ++i)
      if (g[i] * step < 0 && std::abs(g[i] * step) > 0.9 * (1 + x * g[i]))
        step = std::copysign(0.9 * (1 + x * g[i]) / std::abs(g[i]), step), cut = true;
    x += step;
    if (!cut && std::abs(step) <= 1e-15 * (1 + std::abs(x))) return x;
  }
  return x;
}

// f reweighted by the secular root of g: the pentanomial of greatest likelihood given f
// among those with sum q_i g_i = 0. root: where the search starts, then the root found.
Cells constrained(const Cells& f, const Cells& g, double& root) {
  const double x = root = secular_root(f, g, root);
  Cells q;
  for (size_t i = 0; i < 5; ++i) q[i] = f[i] / (1 + x * g[i]);
  return q;
}

// The pentanomial of greatest likelihood given f with mean score s (0 < s < 1).
Cells with_mean(const Cells& f, double s) {
  Cells g;
  for (size_t i = 0; i < 5; ++i) g[i] = PAIR_SCORE[i] - s;
  double root = 0;
  return constrained(f, g, root);
}

// ...with t-value (mean - 1/2) / sd = t: the constraint's gradient taken at the last
// estimate's mean and sd, from the uniform pentanomial on, until it no longer moves.
Cells with_t_value(const Cells& f, double t) {
  Cells q;
  q.fill(0.2);
  double root = 0;  // each round's search starts from the last round's root
  for (int round = 0; round < 100; ++round) {
    const Moments m = moments(q);
    const double sd = std::sqrt(m.variance);
    Cells g;
    for (size_t i = 0; i < 5; ++i) {
      const double z = (m.mean - PAIR_SCORE[i]) / sd;
      g[i] = PAIR_SCORE[i] - 0.5 - t * sd * (1 + z * z) / 2;
    }
    const Cells next = constrained(f, g, root);
    double moved = 0;
    for (size_t i = 0; i < 5; ++i) moved = std::max(moved, std::abs(next[i] - q[i]));
    q = next;
    if (moved < 1e-12) break;
  }
  return q;
}

Cells hypothesis(const Cells& f, double elo, EloModel model) {
  if (model == EloModel::LOGISTIC) return with_mean(f, score_of_elo(elo));
  return with_t_value(f, std::sqrt(2.0) * elo / NELO_PER_T);
}

// The end of the score interval between m and the bound `end` (0 or 1): where
// N (m - p)^2 = z^2 V(p) by bisection, V(p) the variance of the pentanomial of greatest
// likelihood with mean p.
double interval_end(const Frequencies& r, double pairs, double m, double end) {
  if (m == end) return end;
  double inside = m, outside = end;
  for (int step = 0; step < 100; ++step) {
    const double p = (inside + outside) / 2;
    if (p == inside || p == outside) break;
    const double v = moments(with_mean(r.f, p)).variance;
    (pairs * (m - p) * (m - p) <= Z95 * Z95 * v ? inside : outside) = p;
  }
  return inside;
}

// v as printed to `unit` (0.01, 0.1): what rounds to zero is 0, never "-0.00".
double shown(double v, double unit) { return std::abs(v) < unit / 2 ? 0.0 : v; }

// Both games' points, or none when either has none.
std::optional<double> pair_points(std::optional<double> even, std::optional<double> odd) {
  if (!even || !odd) return std::nullopt;
  return *even + *odd;
}

}  // namespace

double elo_of_score(double score) { return 400 * std::log10(score / (1 - score)); }

double score_of_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

PairScore pair_score(const Pentanomial& p) {
  const double nan = std::nan("");
  if (p.pairs() == 0) return {nan, nan, nan, nan, nan, nan};
  const double pairs = double(p.pairs());
  double m = 0;
  for (size_t i = 0; i < 5; ++i) m += double(p.counts[i]) * PAIR_SCORE[i];
  m /= pairs;
  const Frequencies r = regularised(p);
  PairScore s{m, interval_end(r, pairs, m, 0), interval_end(r, pairs, m, 1), 0, 0, 0};
  s.elo = elo_of_score(s.score), s.elo_low = elo_of_score(s.score_low), s.elo_high = elo_of_score(s.score_high);
  return s;
}

std::string elo_text(const PairScore& s) {
  char text[96];
  if (s.score >= 1)
    std::snprintf(text, sizeof text, "Elo at least %.1f (no finite Elo at a score of 1)", shown(s.elo_low, 0.1));
  else if (s.score <= 0)
    std::snprintf(text, sizeof text, "Elo at most %.1f (no finite Elo at a score of 0)", shown(s.elo_high, 0.1));
  else
    std::snprintf(text, sizeof text, "Elo %.1f [%.1f, %.1f]", shown(s.elo, 0.1), shown(s.elo_low, 0.1),
                  shown(s.elo_high, 0.1));
  return text;
}

const char* elo_model_name(EloModel m) { return m == EloModel::LOGISTIC ? "logistic" : "normalized"; }

double SprtSpec::lower() const { return std::log(beta / (1 - alpha)); }

double SprtSpec::upper() const { return std::log((1 - beta) / alpha); }

std::string SprtSpec::text() const {
  std::ostringstream s;
  s << "elo0=" << elo0 << " elo1=" << elo1 << " alpha=" << alpha << " beta=" << beta
    << " model=" << elo_model_name(model);
  return s.str();
}

double sprt_llr(const Pentanomial& p, const SprtSpec& s) {
  if (p.pairs() == 0) return 0;
  const Frequencies r = regularised(p);
  const Cells q0 = hypothesis(r.f, s.elo0, s.model), q1 = hypothesis(r.f, s.elo1, s.model);
  double llr = 0;
  for (size_t i = 0; i < 5; ++i) llr += r.f[i] * (std::log(q1[i]) - std::log(q0[i]));
  return r.n * llr;
}

std::string llr_text(double llr, const SprtSpec& s) {
  char text[96];
  std::snprintf(text, sizeof text, "LLR %.2f [%.2f, %.2f]", shown(llr, 0.01), s.lower(), s.upper());
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
    if (llr_ < spec_.lower() || llr_ > spec_.upper()) {
      decision_ = llr_ > spec_.upper() ? SprtDecision::H1 : SprtDecision::H0;
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
  return match_stats(game, result).penta;
}

MatchStats match_stats(const std::vector<uint64_t>& game, const std::vector<std::string>& result) {
  std::map<uint64_t, std::optional<double>> points;
  for (size_t i = 0; i < game.size(); ++i) points[game[i]] = first_player_points(game[i], result[i]);
  MatchStats m;
  for (const auto& [g, pts] : points) {
    if (pts) ++(*pts == 1 ? m.wins : *pts == 0 ? m.losses : m.draws);
    if (g % 2) continue;
    auto odd = points.find(g + 1);
    if (odd == points.end()) continue;
    if (std::optional<double> both = pair_points(pts, odd->second)) {
      m.penta.add(*both);
      if (*both == 1 && *pts != 0.5) ++m.win_loss_pairs;
    }
  }
  return m;
}

MatchElo match_elo(const Pentanomial& p) {
  const double n = double(p.pairs());
  double score = 0, variance = 0;
  for (size_t i = 0; i < 5; ++i) score += double(p.counts[i]) / n * (double(i) / 4);
  for (size_t i = 0; i < 5; ++i) variance += double(p.counts[i]) / n * std::pow(double(i) / 4 - score, 2);
  const double per_pair = variance / n;
  const double high = score + Z95 * std::sqrt(per_pair), low = score - Z95 * std::sqrt(per_pair);
  auto elo = [](double s) { return -400.0 * std::log10(1.0 / s - 1.0); };
  auto nelo = [&](double s) { return (s - 0.5) / std::sqrt(2 * variance) * NELO_PER_T; };
  return {score,
          elo(score),
          (elo(high) - elo(low)) / 2.0,
          nelo(score),
          (nelo(high) - nelo(low)) / 2.0,
          (1 - std::erf(-(score - 0.5) / std::sqrt(2.0 * per_pair))) / 2.0};
}

std::string fixed2(double value) {
  char text[48];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string fastchess_summary(const MatchHeader& h, const MatchStats& m, const PairSequence* sprt) {
  const std::string dashes(50, '-');
  const MatchElo e = match_elo(m.penta);
  const auto& c = m.penta.counts;
  const double pairs = double(m.penta.pairs()), points = double(m.wins) + 0.5 * double(m.draws);
  const double dd = double(c[2] - m.win_loss_pairs);
  char points_text[64];
  std::snprintf(points_text, sizeof points_text, "%.1f (%s %%)", points,
                fixed2(points / double(m.games()) * 100).c_str());
  std::string s = dashes + "\n";
  s += "Results of " + h.first + " vs " + h.second + " (" + h.limits + ", " + h.threads + ", " + h.hash +
       (h.book.empty() ? "" : ", " + h.book) + "):\n";
  s += "Elo: " + fixed2(e.elo) + " +/- " + fixed2(e.elo_error) + ", nElo: " + fixed2(e.nelo) + " +/- " +
       fixed2(e.nelo_error) + "\n";
  s += "LOS: " + fixed2(e.los * 100) + " %, DrawRatio: " + fixed2(double(c[2]) / pairs * 100) +
       " %, PairsRatio: " + fixed2(double(c[3] + c[4]) / double(c[0] + c[1])) + "\n";
  s += "Games: " + std::to_string(m.games()) + ", Wins: " + std::to_string(m.wins) +
       ", Losses: " + std::to_string(m.losses) + ", Draws: " + std::to_string(m.draws) + ", Points: " + points_text +
       "\n";
  s += "Ptnml(0-2): [" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ", " +
       std::to_string(c[3]) + ", " + std::to_string(c[4]) + "], WL/DD Ratio: " + fixed2(double(m.win_loss_pairs) / dd) +
       "\n";
  if (sprt) {
    const double llr = sprt->llr(), lower = sprt->spec().lower(), upper = sprt->spec().upper();
    char fraction[32];
    std::snprintf(fraction, sizeof fraction, "%.1f%%", (llr >= 0 ? llr / upper : -llr / lower) * 100);
    s += "LLR: " + fixed2(llr) + " (" + fraction + ") (" + fixed2(lower) + ", " + fixed2(upper) + ") [" +
         fixed2(sprt->spec().elo0) + ", " + fixed2(sprt->spec().elo1) + "]\n";
  }
  return s + dashes + "\n";
}

}  // namespace chesshpc
