#include "jobs/rescore/rescore_job.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/game.h"
#include "core/pack.h"
#include "core/threads.h"
#include "core/uci.h"
#include "jobs/dataset/print.h"
#include "jobs/dataset/records.h"
#include "jobs/io/byte_codec.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/byte_source.h"
#include "jobs/io/exchange.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/resume.h"

namespace chesshpc {

int Rescore::read_input(std::ostream& err) {
  if (std::ifstream in(req_.in); !unreadable_input(req_.in, in).empty()) {
    err << "chesshpc rescore: cannot read '" << req_.in << "': " << unreadable_input(req_.in, in) << "\n";
    return EXIT_IO;
  }
  return run_guarded("rescore", req_.in, err, [&] { return in_ = read_rescore_input(req_.in), EXIT_OK; });
}

// Rank 0 reads IN and sends every rank what the plan needs: its verdict, the number of
// positions and whether any is Chess960's (the engines are told so). A failure is rank
// 0's to say; the other ranks return its code.
int Rescore::plan(const Ranks& ranks, std::ostream& err) {
  Payload facts;
  if (ranks.root()) {
    ByteWriter w;
    w.put(int32_t(read_input(err))), w.put(uint64_t(in_.size())), w.put(uint8_t(in_.chess960));
    facts = w.take();
  }
  if (ranks.exchange && ranks.size > 1) ranks.exchange->broadcast(facts);
  ByteReader plan(facts, "truncated rescore plan");
  const int status = plan.get<int32_t>();
  positions_ = plan.get<uint64_t>();
  if (plan.get<uint8_t>()) req_.play.variant = Variant::CHESS960;
  if (status != EXIT_OK) return status;
  units_ = (positions_ + size_t(req_.positions_per_unit) - 1) / size_t(req_.positions_per_unit);
  threads_ = chess::resolve_threads(req_.threads);
  cpus_ = chess::allowed_cpus();
  if (ranks.root()) results_.resize(positions_, units_);
  return EXIT_OK;
}

// OUT's format must hold IN's positions, and the player must start before any work: a
// missing engine is bad input now. Then the
// positions an earlier run searched (--resume), and a first checkpoint, so that an
// unwritable --out fails now.
int Rescore::open(const std::string&, std::ostream& err) {
  if (const std::string why = unfit_output(req_, in_); !why.empty()) {
    err << "chesshpc rescore: " << why << "\n";
    return EXIT_INPUT;
  }
  try {
    // Slot 0's engine, started on its CPU; this thread then runs where it ran before.
    const std::vector<int> was = chess::allowed_cpus();
    const bool moved = cpu_of(0) >= 0 && chess::run_on({cpu_of(0)});
    struct Back {
      const std::vector<int>& cpus;
      bool moved;
      ~Back() {
        if (moved) chess::run_on(cpus);
      }
    } back{was, moved};
    spare_ = make_player(req_.play.first, req_.play);
    next_slot_ = 1;
  } catch (const std::exception& e) {
    err << "chesshpc rescore: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  const std::string path = checkpoint_path(req_);
  std::error_code ec;
  const bool unfinished = std::filesystem::exists(path, ec);
  if (req_.resume) {
    if (!unfinished) {
      err << "chesshpc rescore: cannot resume: there is no '" << path << "' (start without --resume)\n";
      return EXIT_INPUT;
    }
    try {
      results_ = read_checkpoint(req_, in_);
    } catch (const std::exception& e) {
      err << "chesshpc rescore: " << e.what() << "\n";
      return EXIT_INPUT;
    }
    for (size_t u = 0; u < units_; ++u)
      if (results_.unit_done[u]) earlier_ += end_row(u) - first_row(u);
    searched_ = earlier_;
  } else if (unfinished && !req_.force) {
    err << "chesshpc rescore: '" << path << "' holds an unfinished run: add --resume to continue it, "
        << "or --force to start again\n";
    return EXIT_USAGE;
  }
  try {
    write_checkpoint(req_, in_, results_);
  } catch (const std::exception& e) {
    err << "chesshpc rescore: " << e.what() << "\n";
    return EXIT_IO;
  }
  return EXIT_OK;
}

UnitJobInfo Rescore::info() const {
  UnitJobInfo i = unit_job_info("rescore", req_, req_, req_.command_line);
  i.items = "positions", i.rate = "positions/s";
  i.total_items = in_.size(), i.items_to_do = in_.size() - earlier_;
  i.kept_in = checkpoint_path(req_);
  return i;
}

int Rescore::cpu_of(int slot) const {
  // A built-in search (cmd=chesshpc) runs on this thread, left where TBB runs it.
  return req_.play.first.command.empty() ? -1 : chess::engine_cpu(cpus_, threads_, slot);
}

Payload Rescore::compute(size_t unit) { return compute_with(unit, unit_input(unit)); }

Payload Rescore::unit_input(size_t unit) const {
  const auto* at = reinterpret_cast<const char*>(in_.packed.data());
  return Payload(at + 32 * first_row(unit), at + 32 * end_row(unit));
}

// A flag (0: searched, 1: the engine failed twice, or the positions did not come whole),
// then per position: best, score (NaN with a mate), mate, depth, nodes, milliseconds; or
// the failure's message.
Payload Rescore::compute_with(size_t unit, const Payload& input) {
  ByteWriter w;
  const size_t positions = end_row(unit) - first_row(unit);
  if (input.size() != 32 * positions) {
    w.put(uint8_t(1));
    w.put("unit " + std::to_string(unit) + " came with " + std::to_string(input.size()) + " bytes, not the " +
          std::to_string(32 * positions) + " of its " + plural(positions, "position"));
    return w.take();
  }
  const auto* packed = reinterpret_cast<const uint8_t*>(input.data());
  std::unique_ptr<Player>& player = players_.local();
  if (int& slot = slots_.local(); slot < 0) {
    std::lock_guard lock(spare_mutex_);
    slot = spare_ ? 0 : next_slot_++ % threads_;
    player = std::move(spare_);
    if (const int cpu = cpu_of(slot); cpu >= 0) chess::run_on({cpu});
  }
  chess::Random unused(0);  // a fixed limit and no temperature: the player draws nothing
  std::vector<MoveChoice> choices;
  for (size_t i = 0; i < positions; ++i) {
    const chess::Position pos = chess::unpack_trusted(packed + 32 * i);
    // An engine that fails (exits, hangs, breaks the protocol) is started again once.
    for (int attempt = 0;; ++attempt) {
      try {
        if (!player || player->failed()) {
          player.reset();  // a failed engine is killed before its successor starts
          player = make_player(req_.play.first, req_.play);
        }
        player->new_game_with_next_move();
        choices.push_back(player->choose(chess::Game(pos), std::nullopt, unused));
        break;
      } catch (const std::exception& e) {
        player.reset();
        if (attempt == 1) {
          w.put(uint8_t(1)), w.put(std::string(e.what()));
          return w.take();
        }
      }
    }
  }
  w.put(uint8_t(0));
  for (size_t i = 0; i < choices.size(); ++i) {
    const MoveChoice& c = choices[i];
    const chess::Position pos = chess::unpack_trusted(packed + 32 * i);
    w.put(chess::to_uci(c.best, pos.is_chess960()));
    w.put(c.score_cp ? double(*c.score_cp) : std::nan(""));
    w.put(int32_t(c.mate_in.value_or(0))), w.put(int32_t(c.depth)), w.put(uint64_t(c.nodes));
    w.put(int32_t(std::lround(c.seconds * 1000)));
  }
  return w.take();
}

Recorded Rescore::record(size_t unit, Payload&& result, double seconds, int) {
  ByteReader in(result, "truncated rescore unit");
  if (in.get<uint8_t>()) {
    if (failed_.empty()) failed_ = in.text();
    return {0, 0};
  }
  uint64_t nodes = 0;
  for (size_t row = first_row(unit); row < end_row(unit); ++row) {
    results_.best[row] = in.text();
    results_.score_cp[row] = in.get<double>();
    results_.mate_in[row] = in.get<int32_t>(), results_.depth[row] = in.get<int32_t>();
    results_.nodes[row] = in.get<uint64_t>(), results_.time_ms[row] = in.get<int32_t>();
    nodes += results_.nodes[row];
  }
  results_.unit_done[unit] = true;
  const uint64_t positions = end_row(unit) - first_row(unit);
  searched_ += positions, nodes_ += nodes, search_seconds_ += seconds;
  return {positions, positions};
}

// The whole table as it stands, written outside the driver's lock.
std::function<uint64_t()> Rescore::checkpoint() {
  return [this, snapshot = results_, searched = searched_] {
    write_checkpoint(req_, in_, snapshot);
    return searched;
  };
}

int Rescore::finish(const UnitRun& run, std::ostream& out, std::ostream& err) {
  players_.clear(), spare_.reset();
  if (!failed_.empty()) {
    // What was searched stays for --resume, once the engine runs again.
    const std::string unwritten = h5::write_error([&] { write_checkpoint(req_, in_, results_); });
    err << "chesshpc rescore: " << failed_ << "; the run stops: " << searched_ << " of " << in_.size()
        << " positions searched are kept in '" << checkpoint_path(req_) << "'"
        << (unwritten.empty() ? ", and --resume continues it: " + req_.command_line + (req_.resume ? "" : " --resume")
                              : ", but it could not be written: " + unwritten)
        << "\n";
    return unwritten.empty() ? EXIT_INPUT : EXIT_IO;
  }
  // A record OUT's format cannot hold (a move binpack cannot code) is bad input; IN gone is
  // its reader's code; anything else unwritable, EXIT_IO.
  std::string unwritten;
  int unwritten_code = EXIT_IO;
  try {
    unwritten = h5::write_error([&] { write_rescored(req_, in_, results_, run.started, threads_, run.ranks); });
  } catch (const DatasetError& e) {
    unwritten = "'" + req_.out + "' " + e.what(), unwritten_code = EXIT_INPUT;
  } catch (const ReadError& e) {
    unwritten = e.what(), unwritten_code = e.exit_code();
  } catch (const WriteError& e) {
    unwritten = e.what();
  }
  if (req_.json) {
    JsonObject o;
    o.add("input", req_.in).add("out", req_.out).add("player", req_.player());
    o.add("positions", (long)in_.size()).add("searched", (long)(searched_ - earlier_)).add("resumed", (long)earlier_);
    o.add("nodes", (long)nodes_).add("seconds", run.seconds).add("ranks", run.ranks).add("threads", threads_);
    out << o.str() << "\n";
  } else {
    char line[64];
    std::snprintf(line, sizeof line, " in %.3f s", run.seconds);
    out << req_.in << ": " << plural(in_.size(), "position") << " rescored by " << req_.player() << " (" << earlier_
        << " by an earlier run)" << line << ", " << plural((unsigned long long)run.ranks, "rank") << " x "
        << plural((unsigned long long)threads_, "thread") << "\n";
  }
  return say_unwritten("rescore", unwritten, "the positions searched stay in '" + checkpoint_path(req_) + "'", err)
             ? unwritten_code
             : EXIT_OK;
}

}  // namespace chesshpc
