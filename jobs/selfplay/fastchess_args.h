// fastchess's and cutechess-cli's command lines as selfplay's own options: one translation
// of their single-dash options (-engine, -each, -rounds, -openings, -pgnout, -sprt, ...)
// into chesshpc's long ones, which then read and check them as they read their own. What
// either tool means by an option is kept; what chesshpc cannot do is refused by name.
#pragma once

#include <string>
#include <vector>

namespace chesshpc {

// args with every fastchess or cutechess-cli option replaced by chesshpc's (chesshpc's own
// "--" options are kept as they are):
//   -engine K=V... / -each K=V...   --engine with -each's keys before each engine's own
//   -rounds N -games G | -repeat    --games N x G (G must be 2: an opening is a game pair)
//   -concurrency N                  --threads N
//   -openings file= format= order= plies= start=   --book --book-order --book-plies --book-start
//   -pgnout file=F [append=true] (or cutechess's -pgnout F)  --pgn-out F [--pgn-append]
//   -sprt K=V...                    --sprt
//   -draw movenumber= movecount= score=            --draw-after N+1 --draw-moves --draw-score
//   -resign movecount= score= twosided=            --resign-moves --resign-score [--resign-one-sided]
//   (and --adjudicate-as fastchess: these follow fastchess's rules; movecount= is 1 if not given)
//   -maxmoves N                     --max-plies 2N
//   -srand S                        --seed S
//   -variant standard|fischerandom  --variant standard|chess960
//   -recover, -force-concurrency    nothing: chesshpc restarts a failed engine anyway
// Throws UsageError naming the option and key as the user wrote them.
std::vector<std::string> fastchess_args(const std::vector<std::string>& args);

}  // namespace chesshpc
