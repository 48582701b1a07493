#include "jobs/perft/epd_file.h"

#include <array>

#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

struct CountRow {
  int32_t line = 0, depth = 0, ok = 0;
  std::string fen;
  uint64_t expected = 0, nodes = 0;
  double seconds = 0;
};

constexpr auto COUNTS = h5::table("counts", "one row per ';Dn count' checked, in the suite's order",
                                  {
                                      h5::column<&CountRow::line>("line", "the suite's line, 1-based"),
                                      h5::column<&CountRow::fen>("fen", "the line's position"),
                                      h5::column<&CountRow::depth>("depth", "plies counted"),
                                      h5::column<&CountRow::expected>("expected", "the suite's count"),
                                      h5::column<&CountRow::nodes>("nodes", "chesshpc's perft count"),
                                      h5::column<&CountRow::ok>("ok", "1 when the two agree, else 0"),
                                      h5::column<&CountRow::seconds>("seconds", "the count's wall time"),
                                  });

struct Root {
  const PerftRequest& req;
  int64_t counts, mismatches, unreadable;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return "perft_epd"; }),
    h5::attr<Root>("epd", "the suite as --epd named it", [](const Root& r) { return r.req.epd; }),
    h5::attr<Root>("max_depth", "the deepest count checked (--max-depth)",
                   [](const Root& r) { return int64_t(r.req.max_depth); }),
    h5::attr<Root>("counts", "counts checked: the rows of /counts", [](const Root& r) { return r.counts; }),
    h5::attr<Root>("mismatches", "rows of /counts whose counts differ", [](const Root& r) { return r.mismatches; }),
    h5::attr<Root>("unreadable", "lines of the suite that could not be read",
                   [](const Root& r) { return r.unreadable; }),
});

std::string readme() {
  return "chesshpc perft --epd: an EPD suite's perft counts checked against chesshpc's.\n" + h5::readme(COUNTS) +
         h5::readme("Root attributes", ROOT);
}

}  // namespace

std::string write_epd_file(const PerftRequest& req, const std::vector<EpdCount>& counts, int64_t unreadable,
                           const std::string& started) {
  std::vector<CountRow> rows;
  int64_t mismatches = 0;
  for (const EpdCount& c : counts) {
    rows.push_back({c.line, c.depth, c.expected == c.nodes, c.fen, c.expected, c.nodes, c.seconds});
    mismatches += c.expected != c.nodes;
  }
  return h5::write_error([&] {
    h5::File file(req.out);
    h5::write_table(file, COUNTS, rows);
    h5::write_provenance(file, {req.command_line, started, utc_now(), req.threads, 1, readme()});
    h5::write_attrs(file, ROOT, Root{req, int64_t(rows.size()), mismatches, unreadable});
    file.commit();
  });
}

}  // namespace chesshpc
