#include "jobs/bench/run.h"

#include <chrono>
#include <memory>
#include <optional>

#include "core/perft.h"
#include "core/threads.h"
#include "jobs/bench/file.h"
#include "jobs/bench/print.h"
#include "jobs/bench/stockfish.h"
#include "jobs/bench/suite.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

// The measurements this run makes: Stockfish's only with a Stockfish, cluster_perft only
// with ranks to run it on.
std::vector<size_t> runnable(const Suite& suite, bool stockfish, bool cluster) {
  std::vector<size_t> indices;
  for (size_t i = 0; i < suite.specs.size(); ++i) {
    Benchmark b = suite.specs[i].benchmark;
    if ((b == Benchmark::STOCKFISH_PERFT && !stockfish) || (b == Benchmark::CLUSTER_PERFT && !cluster)) continue;
    indices.push_back(i);
  }
  return indices;
}

struct Runner {
  const RankHooks& ranks;
  Stockfish* stockfish;
  int threads;

  MeasurementRow run(size_t index, const BenchSpec& spec, int repeat) const {
    MeasurementRow row{std::string(benchmark_name(spec.benchmark)), std::string(spec.set), spec.depth, repeat};
    row.threads = is_threaded(spec.benchmark) ? threads : 1;
    row.ranks = spec.benchmark == Benchmark::CLUSTER_PERFT ? ranks.ranks : 1;
    BenchResult r = spec.benchmark == Benchmark::STOCKFISH_PERFT ? stockfish->perft(set_fen(spec.set), spec.depth)
                    : spec.benchmark == Benchmark::CLUSTER_PERFT ? ranks.cluster_perft(index, spec, threads)
                                                                 : measure(spec, threads);
    check_nodes(spec, r.nodes);
    row.nodes = r.nodes, row.seconds = r.seconds;
    return row;
  }
};

// Every repeat of every measurement, in suite order: the repeats of one measurement one
// after another, and cluster_perft, which needs every rank, last.
std::vector<MeasurementRow> run_suite(const Suite& suite, const std::vector<size_t>& indices, const Runner& runner,
                                      int repeats, Progress& progress) {
  std::vector<MeasurementRow> rows;
  for (size_t i : indices)
    for (int repeat = 0; repeat < repeats; ++repeat) {
      rows.push_back(runner.run(i, suite.specs[i], repeat));
      progress.done(1, rows.back().nodes);
    }
  return rows;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The run before its measurements: what was asked, where, and on what.
BenchRun describe_run(const BenchRequest& req, const RankHooks& ranks, const Stockfish* stockfish) {
  BenchRun run;
  run.suite = req.suite;
  run.threads = chess::resolve_threads(req.threads);
  run.ranks = ranks.ranks, run.repeats = req.repeats;
  run.command_line = req.command_line;
  run.started_utc = utc_now();
  run.machine = describe_machine();
  for (const std::string& h : ranks.hosts) run.hosts += (run.hosts.empty() ? "" : ",") + h;
  if (run.hosts.empty()) run.hosts = run.machine.hostname;
  if (stockfish) run.stockfish = stockfish->description();
  return run;
}

}  // namespace

int run_bench(const BenchRequest& req, const RankHooks& ranks, std::ostream& out, std::ostream& err) {
  const Suite& suite = *find_suite(req.suite);
  // Both checks come before any measuring: a run never ends in a file it cannot write.
  std::optional<h5::File> file;
  try {
    file.emplace(req.out);
  } catch (const h5::Error& e) {
    err << "chesshpc bench: " << e.what() << "\n";
    return EXIT_IO;
  }
  std::unique_ptr<Stockfish> stockfish;
  try {
    stockfish = Stockfish::open(req.stockfish);
  } catch (const UciError& e) {
    err << "chesshpc bench: cannot use Stockfish: " << e.what() << "\n";
    return EXIT_INPUT;
  }

  BenchRun run = describe_run(req, ranks, stockfish.get());
  std::vector<size_t> indices = runnable(suite, stockfish != nullptr, bool(ranks.cluster_perft));
  Progress progress(err, "bench", !req.quiet, req.progress_interval);
  progress.set_unit_name("measurements");
  progress.add_total(indices.size() * size_t(req.repeats));
  auto t0 = std::chrono::steady_clock::now();
  try {
    run.rows = run_suite(suite, indices, Runner{ranks, stockfish.get(), run.threads}, req.repeats, progress);
  } catch (const CountMismatch& e) {
    progress.finish();
    err << "chesshpc bench: MISMATCH: " << e.what() << "; no result file written\n";
    return EXIT_MISMATCH;
  } catch (const UciError& e) {
    progress.finish();
    err << "chesshpc bench: Stockfish failed: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  progress.finish();
  run.seconds = seconds_since(t0);
  run.summary = summarize(run.rows);
  // The measurements are printed whether or not the file could be written.
  std::string unwritten = h5::write_error([&] {
    write_bench_file(*file, run);
    file->commit();
  });
  print_bench(run, req.json, unwritten.empty() ? req.out : "", out);
  return say_unwritten("bench", unwritten, "", err);
}

}  // namespace chesshpc
