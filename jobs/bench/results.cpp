#include "jobs/bench/results.h"

#include <algorithm>
#include <cmath>

namespace chesshpc {

namespace {

bool same_measurement(const SummaryRow& s, const MeasurementRow& m) {
  return s.benchmark == m.benchmark && s.set == m.set && s.depth == m.depth;
}

SummaryRow summarize_one(const std::vector<const MeasurementRow*>& repeats) {
  const MeasurementRow& first = *repeats[0];
  SummaryRow s{first.benchmark, first.set, first.depth, first.threads, first.ranks, first.nodes};
  std::vector<double> seconds, nps;
  for (const MeasurementRow* m : repeats) seconds.push_back(m->seconds), nps.push_back(m->nodes_per_second());
  s.median_seconds = median(seconds);
  s.min_seconds = *std::min_element(seconds.begin(), seconds.end());
  s.max_seconds = *std::max_element(seconds.begin(), seconds.end());
  s.median_nodes_per_second = median(nps);
  s.stockfish_ratio = s.stockfish_seconds = NAN;
  return s;
}

void add_stockfish_ratios(std::vector<SummaryRow>& summary) {
  for (SummaryRow& s : summary) {
    if (s.benchmark != "perft") continue;
    for (const SummaryRow& sf : summary)
      if (sf.benchmark == "stockfish_perft" && sf.set == s.set && sf.depth == s.depth && sf.median_nodes_per_second > 0)
        s.stockfish_ratio = s.median_nodes_per_second / sf.median_nodes_per_second,
        s.stockfish_seconds = sf.median_seconds;
  }
}

}  // namespace

bool SummaryRow::short_ratio() const { return stockfish_seconds < STOCKFISH_SHORT_SECONDS; }

double MeasurementRow::nodes_per_second() const { return seconds > 0 ? double(nodes) / seconds : 0; }

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<SummaryRow> summarize(const std::vector<MeasurementRow>& rows) {
  std::vector<SummaryRow> summary;
  std::vector<bool> taken(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (taken[i]) continue;
    SummaryRow key{rows[i].benchmark, rows[i].set, rows[i].depth};
    std::vector<const MeasurementRow*> repeats;
    for (size_t j = i; j < rows.size(); ++j)
      if (same_measurement(key, rows[j])) repeats.push_back(&rows[j]), taken[j] = true;
    summary.push_back(summarize_one(repeats));
  }
  add_stockfish_ratios(summary);
  return summary;
}

}  // namespace chesshpc
