// Checks that a FEN is refused with the field and the fault named, for test_fen and
// test_chess960.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/position.h"

// The message is part of the contract: a user fixing a FEN by hand needs the field and
// the fault, so every rejection checks both, not just that something was thrown.
inline void expect_rejected(std::string_view fen, int field, std::initializer_list<std::string_view> parts,
                            bool chess960 = false) {
  SCOPED_TRACE(std::string("FEN: ") + std::string(fen));
  try {
    chess::Position::from_fen(fen, chess960);
    ADD_FAILURE() << "accepted";
  } catch (const chess::FenError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    std::string what = e.what();
    for (std::string_view part : parts)
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
  }
}
