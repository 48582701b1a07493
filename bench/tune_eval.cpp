// Texel tuning of the evaluation: positions labelled with the result of the game they
// came from, and the weights that make a logistic curve of the static evaluation
// predict those results best (least squares, coordinate-wise local search).
//
//   tune_eval gen GAMES NODES SEED [THREADS] > positions.txt
//       self-play at NODES per move from seeded random openings; one line per quiet
//       position: FEN;result (1, 0.5, 0 for White)
//   tune_eval fit positions.txt SECONDS [THREADS] > core/eval_params.cpp
//       fits every weight for at most SECONDS and writes the weights file
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/eval.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/search.h"
#include "core/see.h"

using namespace chess;

namespace {

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One self-play game; appends "FEN;result" lines of its quiet positions to out.
void play_game(uint64_t seed, uint64_t nodes, Search& search, std::string& out) {
  uint64_t rng = seed;
  Game game;
  // A random opening of 8 plies makes every game different; a position that is
  // already lost or over is played on all the same (its labels are still true).
  for (int i = 0; i < 8 && !game.over(); ++i) {
    MoveList moves = legal_moves(game.position());
    if (moves.empty()) break;
    game.play(moves[splitmix(rng) % moves.size()]);
  }
  std::vector<std::string> fens;
  std::vector<Key> keys;
  for (int ply = 0; ply < game.ply(); ++ply) keys.push_back(0);
  search.clear();
  SearchLimits limits;
  limits.nodes = nodes;
  Result adjudicated = Result::ONGOING;
  int decisive_plies = 0;
  while (!game.over() && game.ply() < 400) {
    const Position& pos = game.position();
    SearchResult r = search.run(pos, keys, limits);
    if (r.best.is_none()) break;
    bool capture = pos.pieces(~pos.side_to_move()) & square_bb(r.best.to());
    if (!pos.in_check() && !capture && r.best.kind() == NORMAL && !is_mate_score(r.score)) fens.push_back(pos.fen());
    // Both sides agree the game is decided: end it there.
    int white_score = pos.side_to_move() == WHITE ? r.score : -r.score;
    decisive_plies = std::abs(white_score) > 1000 ? decisive_plies + 1 : 0;
    if (decisive_plies >= 6) {
      adjudicated = white_score > 0 ? Result::WHITE_WINS : Result::BLACK_WINS;
      break;
    }
    keys.push_back(pos.key());
    game.play(r.best);
  }
  Result result = adjudicated != Result::ONGOING ? adjudicated : game.over() ? game.result() : Result::DRAW;
  const char* label = result == Result::WHITE_WINS ? "1" : result == Result::BLACK_WINS ? "0" : "0.5";
  for (const std::string& fen : fens) out += fen + ";" + label + "\n";
}

int gen(int games, uint64_t nodes, uint64_t seed, int threads) {
  std::vector<std::string> outputs(games);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      Search search(size_t(4) << 20);
      for (int g = t; g < games; g += threads) play_game(seed * 1000003 + uint64_t(g), nodes, search, outputs[g]);
    });
  for (auto& th : pool) th.join();
  // Written in game order, so the file does not depend on the thread count.
  for (const std::string& o : outputs) std::cout << o;
  return 0;
}

struct Sample {
  Position pos;
  double result;
};

// Mean squared error of the predicted results over the samples.
double error(const std::vector<Sample>& samples, const EvalParams& p, double k, int threads) {
  const PieceSquareTable table = piece_square_table(p);
  std::vector<double> partial(threads, 0.0);
  std::vector<std::thread> pool;
  size_t chunk = (samples.size() + threads - 1) / threads;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      double sum = 0;
      for (size_t i = t * chunk; i < std::min(samples.size(), (t + 1) * chunk); ++i) {
        const Sample& s = samples[i];
        int v = evaluate(s.pos, p, table);
        if (s.pos.side_to_move() == BLACK) v = -v;
        double predicted = 1.0 / (1.0 + std::pow(10.0, -k * v / 400.0));
        sum += (s.result - predicted) * (s.result - predicted);
      }
      partial[t] = sum;
    });
  for (auto& th : pool) th.join();
  double total = 0;
  for (double x : partial) total += x;  // fixed order: the same sum for the same threads
  return total / double(samples.size());
}

void write_params(const EvalParams& params, std::ostream& out) {
  EvalParams p = params;
  std::vector<Score> v;
  for_each_param(p, [&](const std::string&, Score& s) { v.push_back(s); });
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "{" + std::to_string(...).
  auto fmt = [](const Score& s) {
    std::string t = "{";
    t += std::to_string(s.mg);
    t += ", ";
    t += std::to_string(s.eg);
    t += '}';
    return t;
  };
  auto row = [&](size_t from, size_t n) {
    std::string r;
    for (size_t i = 0; i < n; ++i) {
      if (i) r += ", ";
      r += fmt(v[from + i]);
    }
    return r;
  };
  size_t i = 0;
  out << "// Evaluation weights. Written by bench/tune_eval (Texel's method); see bench/README.md.\n"
         "// Layout: the order of for_each_param in eval.cpp.\n"
         "#include \"eval.h\"\n\nnamespace chess {\n\n// clang-format off\nconst EvalParams DEFAULT_EVAL_PARAMS = {\n";
  out << "  {" << row(i, 5) << "},\n", i += 5;
  out << "  {\n";
  for (int pt = 0; pt < 6; ++pt) {
    out << "    {\n";
    for (int r = 0; r < 8; ++r) out << "      " << row(i, 4) << ",\n", i += 4;
    out << "    },\n";
  }
  out << "  },\n";
  out << "  {" << row(i, 4) << "},\n", i += 4;
  out << "  {" << row(i, 8) << "},\n", i += 8;
  for (int s = 0; s < 6; ++s) out << "  " << fmt(v[i++]) << ",\n";
  out << "  {" << row(i, 4) << "},\n", i += 4;
  out << "  " << fmt(v[i++]) << ",\n";
  out << "};\n// clang-format on\n\n}  // namespace chess\n";
}

int fit(const std::string& path, double seconds, int threads) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::vector<Sample> samples;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    size_t semi = line.find(';');
    if (semi == std::string::npos) continue;
    samples.push_back({Position::from_fen(line.substr(0, semi)), std::stod(line.substr(semi + 1))});
  }
  std::cerr << samples.size() << " positions\n";
  if (samples.empty()) return 1;

  EvalParams params = DEFAULT_EVAL_PARAMS;
  // The scale of the logistic curve: fitted once to the starting weights, then fixed,
  // so that the weights cannot lower the error by merely growing or shrinking.
  double k = 1.0, best_k_error = 1e9;
  for (double kk = 0.2; kk <= 3.0; kk += 0.05) {
    double e = error(samples, params, kk, threads);
    if (e < best_k_error) best_k_error = e, k = kk;
  }
  double best = error(samples, params, k, threads);
  std::cerr << "K " << k << ", error " << best << "\n";

  std::vector<int*> weights;
  for_each_param(params, [&](const std::string&, Score& s) {
    weights.push_back(&s.mg);
    weights.push_back(&s.eg);
  });
  for (int pass = 1, step = 4; elapsed() < seconds; ++pass) {
    int improved = 0;
    for (int* w : weights) {
      if (elapsed() >= seconds) break;
      for (int dir : {+1, -1}) {
        *w += dir * step;
        double e = error(samples, params, k, threads);
        if (e < best) {
          best = e;
          ++improved;
          break;
        }
        *w -= dir * step;
      }
    }
    std::cerr << "pass " << pass << " step " << step << ": error " << best << ", " << improved << " weights moved, "
              << elapsed() << " s\n";
    if (!improved) {
      if (step == 1) break;
      step /= 2;
    }
  }
  write_params(params, std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() >= 4 && a[0] == "gen")
    return gen(std::stoi(a[1]), std::stoull(a[2]), std::stoull(a[3]), a.size() > 4 ? std::stoi(a[4]) : 1);
  if (a.size() >= 3 && a[0] == "fit") return fit(a[1], std::stod(a[2]), a.size() > 3 ? std::stoi(a[3]) : 1);
  std::cerr << "usage: tune_eval gen GAMES NODES SEED [THREADS] > positions.txt\n"
               "       tune_eval fit positions.txt SECONDS [THREADS] > core/eval_params.cpp\n";
  return 2;
}
