// The MPI layer's parts in one process, without MPI: rank 0's unit queues, the ledger, the
// checkpoint thread and stop notice, the unit-job driver and the task farm, each driven
// with a fake job that notes every call made into it. (On several ranks they are tested
// through the command line, in tests/python/mpi_*.py.)
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "cluster/checkpointer.h"
#include "cluster/ledger.h"
#include "cluster/mpi_session.h"
#include "cluster/peer_watch.h"
#include "cluster/signals.h"
#include "cluster/task_farm.h"
#include "cluster/unit_driver.h"
#include "cluster/unit_queues.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"

using namespace chesshpc;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

// Polls `ready` until it holds or `seconds` pass; the machine may be shared and loaded,
// so the time allowed is many times what the wait takes.
bool eventually(const std::function<bool()>& ready, double seconds = 30) {
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (!ready()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

Payload payload_of(size_t unit) {
  std::string s = "unit " + std::to_string(unit);
  return Payload(s.begin(), s.end());
}

std::vector<size_t> range(size_t from, size_t to) {
  std::vector<size_t> v;
  for (size_t u = from; u < to; ++u) v.push_back(u);
  return v;
}

// A stream buffer that several threads may write to and the test may read at any time.
class SharedText : public std::streambuf {
 public:
  std::string text() const {
    std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    std::lock_guard lock(mutex_);
    text_ += traits_type::to_char_type(c);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    text_.append(s, size_t(n));
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::string text_;
};

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A job of `n` units, unit u computing to the bytes of "unit u", that notes every call
// made into it. record(), checkpoint() and progress_detail() count the times they find
// another of the three still running: the ledger's lock should make that never happen.
class FakeJob : public UnitJob {
 public:
  explicit FakeJob(size_t n) : units_(n) { about.command = "fake", about.quiet = true; }

  // What the job answers; set before the run.
  int plan_status = EXIT_OK, open_status = EXIT_OK, finish_status = EXIT_OK;
  std::set<size_t> finished_before;  // done() by an earlier run
  int threads = 1;
  std::function<size_t(size_t)> key;  // affinity
  bool keeps_file = true;             // checkpoint() gives a writer
  UnitJobInfo about;
  std::function<void(size_t)> while_computing;  // called inside compute(u)
  size_t enough_after = 0;                      // enough() once this many units are recorded; 0: never

  // What happened; read after the run.
  struct Record {
    size_t unit;
    Payload result;
    double seconds;
    int rank;
  };
  std::vector<Record> records;  // in the order record() got them
  mutable std::atomic<int> overlaps{0};
  std::atomic<int> writes{0};  // checkpoint writers run
  std::atomic<int> running{0}, most_running{0};
  Ranks planned;
  std::string opened_at;
  std::optional<UnitRun> finished;

  std::vector<std::string> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  std::vector<size_t> computed() const {  // in the order compute() started
    std::lock_guard lock(mutex_);
    return computed_;
  }
  std::vector<size_t> recorded_units() const {
    std::vector<size_t> v;
    for (const Record& r : records) v.push_back(r.unit);
    return v;
  }

  int plan(const Ranks& ranks, std::ostream& err) override {
    note("plan");
    planned = ranks;
    if (plan_status != EXIT_OK) err << "fake: no plan\n";
    return plan_status;
  }
  size_t units() const override { return units_; }
  int open(const std::string& started, std::ostream& err) override {
    note("open");
    opened_at = started;
    if (open_status != EXIT_OK) err << "fake: cannot open\n";
    return open_status;
  }
  bool done(size_t unit) const override { return finished_before.count(unit) > 0; }
  UnitJobInfo info() const override {
    note("info");
    return about;
  }
  int concurrency() const override { return threads; }
  std::function<size_t(size_t unit)> affinity() const override { return key; }

  Payload compute(size_t unit) override {
    {
      std::lock_guard lock(mutex_);
      calls_.push_back("compute");
      computed_.push_back(unit);
    }
    int now = ++running;
    for (int most = most_running; now > most && !most_running.compare_exchange_weak(most, now);) {
    }
    if (while_computing) while_computing(unit);
    --running;
    return payload_of(unit);
  }

  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override {
    Alone alone(*this);
    records.push_back({unit, std::move(result), seconds, rank});
    return {2, 1000};
  }
  std::function<uint64_t()> checkpoint() override {
    Alone alone(*this);
    if (!keeps_file) return {};
    return [this, n = records.size()] {
      ++writes;
      return uint64_t(n);
    };
  }
  bool enough() const override { return enough_after && records.size() >= enough_after; }
  std::string progress_detail() const override {
    Alone alone(*this);
    return ", " + std::to_string(records.size()) + " recorded";
  }

  int finish(const UnitRun& run, std::ostream& out, std::ostream&) override {
    note("finish");
    finished = run;
    out << "fake: " << records.size() << " units recorded\n";
    return finish_status;
  }

 private:
  // Marks a call that must have the job to itself, and stays a moment so that another
  // call coming in at the same time would find it.
  class Alone {
   public:
    explicit Alone(const FakeJob& job) : job_(job) {
      if (job_.inside_.fetch_add(1) != 0) ++job_.overlaps;
      std::this_thread::sleep_for(20us);
    }
    ~Alone() { job_.inside_.fetch_sub(1); }

   private:
    const FakeJob& job_;
  };

  void note(const char* call) const {
    std::lock_guard lock(mutex_);
    calls_.push_back(call);
  }

  size_t units_;
  mutable std::atomic<int> inside_{0};
  mutable std::mutex mutex_;
  mutable std::vector<std::string> calls_;
  std::vector<size_t> computed_;
};

}  // namespace

// ---- UnitQueues ----

TEST(UnitQueues, WithoutAffinityEveryRankTakesFromOneQueueInOrder) {
  UnitQueues queues({}, {4, 1, 3, 0, 2}, 3);
  EXPECT_EQ(queues.next(2), 4u);
  EXPECT_EQ(queues.next(0), 1u);
  EXPECT_EQ(queues.next(1), 3u);
  EXPECT_EQ(queues.next(1), 0u);
  EXPECT_EQ(queues.next(2), 2u);
  for (int rank = 0; rank < 3; ++rank) EXPECT_EQ(queues.next(rank), UnitQueues::NONE);
}

// Unit u has key u + 10, so it goes to queue (u + 1) % 3: rank 0 gets 8, 2, 5, rank 1 gets
// 0, 3, 6 and rank 2 gets 4, 7, 1, each in the order given.
TEST(UnitQueues, AffinitySendsEachUnitToKeyModRanksKeepingOrder) {
  UnitQueues queues([](size_t u) { return u + 10; }, {8, 0, 4, 3, 7, 1, 6, 2, 5}, 3);
  std::map<int, std::vector<uint64_t>> got;
  for (int round = 0; round < 3; ++round)
    for (int rank : {1, 0, 2}) got[rank].push_back(queues.next(rank));
  EXPECT_EQ(got[0], (std::vector<uint64_t>{8, 2, 5}));
  EXPECT_EQ(got[1], (std::vector<uint64_t>{0, 3, 6}));
  EXPECT_EQ(got[2], (std::vector<uint64_t>{4, 7, 1}));
  for (int rank = 0; rank < 3; ++rank) EXPECT_EQ(queues.next(rank), UnitQueues::NONE);
}

// Queues by u % 3: {0}, {1, 4, 7, 10}, {2, 5}. A rank takes the front of its own queue;
// with its own empty, the back of the longest other queue (the first among equals).
TEST(UnitQueues, EmptyQueueStealsFromTheBackOfTheLongestOther) {
  UnitQueues queues([](size_t u) { return u; }, {0, 1, 2, 4, 5, 7, 10}, 3);
  EXPECT_EQ(queues.next(0), 0u);   // its own
  EXPECT_EQ(queues.next(0), 10u);  // back of {1, 4, 7, 10}
  EXPECT_EQ(queues.next(2), 2u);   // its own front, not the 5 behind it
  EXPECT_EQ(queues.next(0), 7u);   // {1, 4, 7} is longer than {5}
  EXPECT_EQ(queues.next(1), 1u);   // its own
  EXPECT_EQ(queues.next(0), 4u);   // {4} and {5}: the first
  EXPECT_EQ(queues.next(1), 5u);   // its own empty: rank 2's
  for (int rank = 0; rank < 3; ++rank) EXPECT_EQ(queues.next(rank), UnitQueues::NONE);
}

// A pinned unit's data lives on its rank: a rank whose queue is empty gets NONE, never
// another rank's unit.
TEST(UnitQueues, PinnedQueuesAreNeverStolenFrom) {
  UnitQueues queues([](size_t u) { return u; }, {0, 1, 2, 4, 5, 7, 10}, 3, true);
  EXPECT_EQ(queues.next(0), 0u);
  EXPECT_EQ(queues.next(0), UnitQueues::NONE);  // {1, 4, 7, 10} stays rank 1's
  EXPECT_EQ(queues.next(2), 2u);
  EXPECT_EQ(queues.next(2), 5u);
  EXPECT_EQ(queues.next(2), UnitQueues::NONE);
  for (size_t u : {1u, 4u, 7u, 10u}) EXPECT_EQ(queues.next(1), u);
  EXPECT_EQ(queues.next(1), UnitQueues::NONE);
}

TEST(UnitQueues, NothingPendingIsNoneForEveryRank) {
  UnitQueues shared({}, {}, 4), keyed([](size_t u) { return u; }, {}, 4);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(shared.next(rank), UnitQueues::NONE);
    EXPECT_EQ(keyed.next(rank), UnitQueues::NONE);
  }
}

// Rank 0's serving thread and its computing threads draw at once.
TEST(UnitQueues, ConcurrentRanksGetEachUnitOnce) {
  constexpr int RANKS = 4;
  const std::vector<size_t> pending = range(0, 4000);
  UnitQueues queues([](size_t u) { return u / 7; }, pending, RANKS);
  std::vector<std::vector<size_t>> got(RANKS);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < RANKS; ++rank)
    threads.emplace_back([&, rank] {
      for (uint64_t u; (u = queues.next(rank)) != UnitQueues::NONE;) got[size_t(rank)].push_back(size_t(u));
    });
  for (std::thread& t : threads) t.join();
  std::multiset<size_t> all;
  for (const auto& g : got) all.insert(g.begin(), g.end());
  EXPECT_EQ(all, std::multiset<size_t>(pending.begin(), pending.end()));
}

// ---- Ledger ----

namespace {

// A ledger over a fake job, with a progress line of 10 items reported every 10 ms.
struct ShownLedger {
  FakeJob job{5};
  SharedText text;
  std::ostream err{&text};
  Progress progress{err, "ledger", true, 0.01};
  Ledger ledger{job, &progress};

  ShownLedger() { progress.add_total(10); }
  size_t reports(const std::string& line) const { return occurrences(text.text(), line); }
};

}  // namespace

// Each record adds 2 items: three records show 6 of the 10 in the progress line.
TEST(Ledger, RecordsReachTheJobAndTheProgressLine) {
  ShownLedger shown;
  Ledger& ledger = shown.ledger;
  FakeJob& job = shown.job;
  ledger.record(3, payload_of(3), 0.5, 0);
  ledger.record(0, payload_of(0), 0.25, 2);
  ledger.record(4, payload_of(4), 1.5, 1);
  ASSERT_EQ(job.records.size(), 3u);
  EXPECT_EQ(job.recorded_units(), (std::vector<size_t>{3, 0, 4}));
  EXPECT_EQ(job.records[1].result, payload_of(0));
  EXPECT_EQ(job.records[1].seconds, 0.25);
  EXPECT_EQ(job.records[1].rank, 2);
  EXPECT_EQ(ledger.detail(), ", 3 recorded");
  EXPECT_TRUE(eventually([&] { return shown.reports("ledger: 6/10 units") > 0; })) << shown.text.text();
}

// After freeze() the job sees no record, nor does the progress line, but the checkpoint
// that follows a stop must still be written.
TEST(Ledger, FreezeIgnoresLaterRecordsButNotCheckpoints) {
  ShownLedger shown;
  Ledger& ledger = shown.ledger;
  ledger.record(1, payload_of(1), 0, 0);
  ledger.record(2, payload_of(2), 0, 0);
  ledger.freeze();
  ledger.record(3, payload_of(3), 0, 0);
  ledger.record(4, payload_of(4), 0, 1);
  EXPECT_EQ(shown.job.recorded_units(), (std::vector<size_t>{1, 2}));
  std::function<uint64_t()> write = ledger.checkpoint();
  ASSERT_TRUE(write);
  EXPECT_EQ(write(), 2u);
  // Two more reports after the last record: both show the frozen count.
  const std::string line = "ledger: 4/10 units";
  ASSERT_TRUE(eventually([&] { return shown.reports(line) > 0; })) << shown.text.text();
  const size_t seen = shown.reports(line);
  ASSERT_TRUE(eventually([&] { return shown.reports(line) >= seen + 2; })) << shown.text.text();
  EXPECT_EQ(shown.reports("ledger: 6/10"), 0u) << shown.text.text();
  EXPECT_EQ(shown.reports("ledger: 8/10"), 0u) << shown.text.text();
}

// The record after which the job has enough (an SPRT decided) shows the progress line at
// once, whatever the interval (a day here: no report of the clock's), and only once; a
// progress line that is off or finished shows nothing.
TEST(Ledger, TheRecordThatMakesEnoughIsReportedAtOnceAndOnce) {
  FakeJob job(5);
  job.enough_after = 2;
  SharedText text;
  std::ostream err{&text};
  Progress progress{err, "ledger", true, 86400};
  progress.add_total(10);
  progress.set_detail([] { return ", detail"; });
  Ledger ledger{job, &progress};
  ledger.record(0, payload_of(0), 0, 0);
  EXPECT_EQ(text.text(), "");
  ledger.record(1, payload_of(1), 0, 0);
  const std::string shown = text.text();
  // One report (a line in a log, the status line on a terminal), with the job's detail.
  EXPECT_EQ(occurrences(shown, "ledger: "), 1u) << shown;
  EXPECT_NE(shown.find("ledger: 4/10 units, "), std::string::npos) << shown;
  EXPECT_NE(shown.find(", detail"), std::string::npos) << shown;
  ledger.record(2, payload_of(2), 0, 0);  // a unit still out at the decision
  EXPECT_EQ(text.text(), shown);
  progress.finish();
  progress.report();
  EXPECT_EQ(text.text(), shown);

  FakeJob quiet_job(5);
  quiet_job.enough_after = 1;
  SharedText none;
  std::ostream none_err{&none};
  Progress off{none_err, "ledger", false, 86400};
  Ledger quiet{quiet_job, &off};
  quiet.record(0, payload_of(0), 0, 0);
  EXPECT_TRUE(quiet.enough());
  EXPECT_EQ(none.text(), "");
}

TEST(Ledger, CheckpointIsTheJobsWriterOrEmpty) {
  FakeJob job(5);
  Ledger ledger(job, nullptr);
  ledger.record(0, payload_of(0), 0, 0);
  std::function<uint64_t()> after_one = ledger.checkpoint();
  ledger.record(1, payload_of(1), 0, 0);
  ledger.record(2, payload_of(2), 0, 0);
  std::function<uint64_t()> after_three = ledger.checkpoint();
  ASSERT_TRUE(after_one && after_three);
  EXPECT_EQ(job.writes.load(), 0);  // taken, not yet run
  EXPECT_EQ(after_three(), 3u);
  EXPECT_EQ(after_one(), 1u);
  EXPECT_EQ(job.writes.load(), 2);
  job.keeps_file = false;
  EXPECT_FALSE(ledger.checkpoint());
}

// The serving thread, the computing threads, the checkpoint thread and the progress line
// all call into the job at once through the ledger; none may find another inside.
TEST(Ledger, ConcurrentCallsNeverOverlapInsideTheJob) {
  constexpr int THREADS = 4, EACH = 150;
  FakeJob job(THREADS * EACH);
  Ledger ledger(job, nullptr);
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < THREADS; ++t)
    threads.emplace_back([&, t] {
      while (!go) std::this_thread::yield();
      for (int i = 0; i < EACH; ++i) {
        size_t unit = size_t(t * EACH + i);
        ledger.record(unit, payload_of(unit), 0, t);
        if (i % 10 == t) ledger.checkpoint();
        if (i % 10 == t + 5) ledger.detail();
      }
    });
  go = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(job.overlaps.load(), 0);
  std::vector<size_t> units = job.recorded_units();
  EXPECT_EQ(std::set<size_t>(units.begin(), units.end()).size(), size_t(THREADS * EACH));
  EXPECT_EQ(units.size(), size_t(THREADS * EACH));
}

// ---- exit_after_launcher ----

namespace {

// A child that calls exit_after_launcher(EXIT_STOPPED, seconds), its stop signals caught as
// a job's are (`signalled`: one comes before the call): what the parent sees of it, in
// order ("stopped", "exit 5", "killed by 9").
std::string launcher_ends(double seconds, bool signalled, bool continue_with_term) {
  const pid_t child = fork();
  if (child == 0) {
    catch_stop_signals();
    if (signalled) raise(SIGTERM);
    exit_after_launcher(EXIT_STOPPED, seconds);
  }
  std::string seen;
  for (int status = 0; waitpid(child, &status, WUNTRACED) == child;) {
    if (WIFSTOPPED(status)) {
      seen += "stopped, ";
      // As mpirun's daemons end a job: SIGCONT, then SIGTERM.
      if (continue_with_term) kill(child, SIGCONT), kill(child, SIGTERM);
      continue;
    }
    seen += WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                              : "killed by " + std::to_string(WTERMSIG(status));
    break;
  }
  return seen;
}

}  // namespace

// A rank that lost a peer stops until the launcher ends the job, and then exits 5: its own
// 5 must not end the job before mpirun has recorded its 205 for the lost node.
TEST(ExitAfterLauncher, StopsUntilTheLauncherContinuesItThenExitsStopped) {
  EXPECT_EQ(launcher_ends(60, false, true), "stopped, exit 5");
}

// No launcher ends the job: the timer continues the process, which exits 5.
TEST(ExitAfterLauncher, WithoutALauncherEndsAfterItsSeconds) {
  EXPECT_EQ(launcher_ends(0.2, false, false), "stopped, exit 5");
}

// The launcher's stop signal came first: the job is ending already, so no stop.
TEST(ExitAfterLauncher, AfterAStopSignalExitsAtOnce) { EXPECT_EQ(launcher_ends(60, true, false), "exit 5"); }

// ---- the stop pipe ----

namespace {

// In a process of its own (the stop flag cannot be cleared): a stop asked for before the
// pipe is made (`early`) or a SIGTERM caught and a second stop after it, then the pipe
// looked up three times, as a checkpoint thread does before each sleep. Prints the stop and
// the bytes the pipe holds.
[[noreturn]] void count_stop_bytes(bool early) {
  if (early) request_stop(SIGTERM);
  catch_stop_signals();
  if (!early) raise(SIGTERM), request_stop(SIGINT);
  int fd = -1;
  for (int i = 0; i < 3; ++i) fd = stop_signal_fd();
  int bytes = -1;
  ioctl(fd, FIONREAD, &bytes);
  std::cerr << "stop " << signal_name(stop_signal()) << ", " << bytes << " byte\n" << std::flush;
  std::_Exit(0);
}

}  // namespace

// The pipe says a stop with one byte, however many times the stop is asked for or the pipe
// looked up after it (each look wrote one more before).
TEST(StopSignalFd, HoldsOneByteHoweverOftenTheStopIsSeen) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(count_stop_bytes(false), testing::ExitedWithCode(0), "^stop SIGTERM, 1 byte\n$");
  EXPECT_EXIT(count_stop_bytes(true), testing::ExitedWithCode(0), "^stop SIGTERM, 1 byte\n$");
}

// ---- Checkpointer ----

namespace {

// The save hook of the tests: the k-th save (from 1) notes the Checkpointer's count and
// time of writing before it, when it started, and returns what `answer(k)` says.
struct SaveLog {
  std::atomic<const Checkpointer*> checkpointer{nullptr};
  std::atomic<int> calls{0};
  std::mutex mutex;
  std::vector<int> writes_before;
  std::vector<double> writing_before;
  std::vector<Clock::time_point> started;

  std::function<size_t()> hook(std::function<size_t(int)> answer) {
    return [this, answer] {
      const Checkpointer* cp = nullptr;
      while (!(cp = checkpointer.load())) std::this_thread::yield();
      {
        std::lock_guard lock(mutex);
        writes_before.push_back(cp->writes());
        writing_before.push_back(cp->seconds_writing());
        started.push_back(Clock::now());
      }
      std::this_thread::sleep_for(2ms);
      return answer(++calls);
    };
  }
};

}  // namespace

TEST(Checkpointer, SavesEveryIntervalAndCountsWrites) {
  SaveLog log;
  std::atomic<int> freezes{0}, stops{0};
  {
    Checkpointer cp({log.hook([](int k) { return size_t(k * 10); }), [&] { ++freezes; }}, 0.05,
                    [&](int, size_t) { ++stops; });
    log.checkpointer = &cp;
    ASSERT_TRUE(eventually([&] { return log.calls >= 4; }));
  }
  const int calls = log.calls;
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(log.calls.load(), calls) << "saving after the Checkpointer is gone";
  EXPECT_EQ(freezes.load(), 0);
  EXPECT_EQ(stops.load(), 0);
  std::lock_guard lock(log.mutex);
  for (int k = 0; k < calls; ++k) {
    EXPECT_EQ(log.writes_before[size_t(k)], k);
    // Every save took at least 2 ms, and a save starts an interval after the last ended.
    EXPECT_GE(log.writing_before[size_t(k)], k * 0.002);
    if (k) {
      EXPECT_GE(std::chrono::duration<double>(log.started[size_t(k)] - log.started[size_t(k - 1)]).count(), 0.05);
    }
  }
}

// A failed save is still counted as a write and is reported on stderr, once while saves
// fail alike (a full disk would say it every few seconds for hours), again after one
// worked; the thread goes on saving, waiting twice as long after each failure in a row.
TEST(Checkpointer, FailedSaveIsReportedOnceAndTheThreadGoesOnMoreSlowly) {
  SharedText text;
  std::streambuf* cerr = std::cerr.rdbuf(&text);
  SaveLog log;
  {
    Checkpointer cp({log.hook([](int k) -> size_t {
                       if (k == 2 || k == 3 || k == 4 || k == 6) throw std::runtime_error("disk full");
                       return size_t(k);
                     }),
                     {}},
                    0.05, [](int, size_t) {});
    log.checkpointer = &cp;
    EXPECT_TRUE(eventually([&] { return log.calls >= 7; }));
  }
  std::cerr.rdbuf(cerr);
  std::lock_guard lock(log.mutex);
  for (size_t k = 0; k < log.writes_before.size(); ++k) EXPECT_EQ(log.writes_before[k], int(k));
  EXPECT_EQ(text.text(),
            "chesshpc: checkpoint failed, the run goes on: disk full\n"
            "chesshpc: checkpoint failed, the run goes on: disk full\n");
  // Saves 3, 4 and 5 came 2, 4 and 8 intervals after the one before (each took 2 ms more).
  auto gap = [&](size_t k) { return std::chrono::duration<double>(log.started[k] - log.started[k - 1]).count(); };
  EXPECT_GE(gap(2), 0.1);
  EXPECT_GE(gap(3), 0.2);
  EXPECT_GE(gap(4), 0.4);
  EXPECT_LT(gap(5), 0.4);  // after the save that worked, one interval again
}

TEST(Checkpointer, WithoutSaveHookWritesNothing) {
  std::atomic<int> freezes{0};
  Checkpointer cp({{}, [&] { ++freezes; }}, 0.01, [](int, size_t) {});
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(cp.writes(), 0);
  EXPECT_EQ(cp.seconds_writing(), 0.0);
  EXPECT_EQ(freezes.load(), 0);
}

namespace {

// In a process of its own (the stop flag cannot be cleared): saves answer 3, then 7, then
// fail for good; once two have failed, SIGTERM. Prints what the hooks saw, in order, and
// exits 0.
[[noreturn]] void checkpoint_until_sigterm() {
  catch_stop_signals();
  std::mutex mutex;
  std::string events;
  auto note = [&](const std::string& e) {
    std::lock_guard lock(mutex);
    events += e + ", ";
  };
  std::atomic<int> saves{0};
  std::atomic<bool> stopped{false};
  {
    CheckpointHooks hooks;
    hooks.save = [&]() -> size_t {
      int k = ++saves;
      if (k > 2) {
        note("save failed");
        throw std::runtime_error("disk full");
      }
      note("save " + std::to_string(k == 1 ? 3 : 7));
      return k == 1 ? 3 : 7;
    };
    hooks.freeze = [&] { note("freeze"); };
    Checkpointer cp(hooks, 0.05, [&](int sig, size_t units) {
      note(std::string("stop ") + signal_name(sig) + " " + std::to_string(units));
      stopped = true;
    });
    if (!eventually([&] { return saves >= 4; })) {
      std::cerr << "only " << saves << " saves\n";
      std::_Exit(1);
    }
    std::raise(SIGTERM);
    if (!eventually([&] { return stopped.load(); })) {
      std::cerr << "no stop\n";
      std::_Exit(1);
    }
  }  // the thread ended with on_stop: joined here, nothing after it
  std::cerr << "log: " << events << "end\n" << std::flush;
  std::_Exit(0);
}

}  // namespace

// On a stop signal: freeze, one more save, then on_stop with the units of the last save
// that worked (7), although that last save failed.
TEST(Checkpointer, StopSignalFreezesSavesAndStopsWithTheUnitsInTheFile) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      checkpoint_until_sigterm(), testing::ExitedWithCode(0),
      "log: save 3, save 7, save failed, save failed, (save failed, )*freeze, save failed, stop SIGTERM 7, end\n");
}

TEST(StopJob, SaysWhereTheUnitsAreKeptAndHowToResumeThenExitsStopped) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  StopNotice notice{"perft", "units", 40, "run.h5", "chesshpc perft --depth 7 --out run.h5", false};
  EXPECT_EXIT(stop_job(notice, SIGTERM, 12), testing::ExitedWithCode(EXIT_STOPPED),
              "\nchesshpc perft: stopped by SIGTERM after 12 of 40 units recorded in 'run\\.h5'\n"
              "resume with: chesshpc perft --depth 7 --out run\\.h5 --resume\n$");
  notice.command_line += " --resume", notice.resumed = true;
  EXPECT_EXIT(stop_job(notice, SIGINT, 30), testing::ExitedWithCode(EXIT_STOPPED),
              "\nchesshpc perft: stopped by SIGINT after 30 of 40 units recorded in 'run\\.h5'\n"
              "resume with: chesshpc perft --depth 7 --out run\\.h5 --resume\n$");
}

TEST(StopJob, WithoutAFileSaysNothingIsKept) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  StopNotice notice{"selfplay", "games", 100, "", "chesshpc selfplay --games 100", false};
  EXPECT_EXIT(stop_job(notice, SIGTERM, 64), testing::ExitedWithCode(EXIT_STOPPED),
              "\nchesshpc selfplay: stopped by SIGTERM after 64 of 100 games; without --out nothing is kept\n$");
}

// A rank lost is one line: which rank, on which node, why, and what the checkpoint keeps.
TEST(StopJob, ALostRankIsOneLineNamingItsNodeAndWhatTheFileKeeps) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EQ(describe({2, "c2", false}), "rank 2 on node c2 (its processes ended)");
  EXPECT_EQ(describe({1, "c1", true}), "rank 1 on node c1 (no answer for 4 s)");
  StopNotice notice{"perft", "buckets", 16384, "f.h5", "chesshpc perft --depth 7 --out f.h5", false};
  EXPECT_EXIT(stop_for_lost_rank(notice, describe({2, "c2", false}), 13903), testing::ExitedWithCode(EXIT_STOPPED),
              "^\nchesshpc perft: lost rank 2 on node c2 \\(its processes ended\\); 'f\\.h5' keeps 13903 of 16384 "
              "buckets: rerun with --resume\n$");
  testing::internal::CaptureStderr();
  say_lost_rank(notice, describe({0, "c0", true}), std::nullopt, "c0");
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "\nchesshpc perft: lost rank 0 on node c0 (no answer for 4 s); 'f.h5' on c0 keeps the buckets of its last "
            "checkpoint: rerun with --resume\n");
  notice.kept_in.clear();
  testing::internal::CaptureStderr();
  say_lost_rank(notice, describe({1, "c1", false}), 3);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "\nchesshpc perft: lost rank 1 on node c1 (its processes ended); without --out nothing is kept\n");
}

// ---- The unit-job driver, in one process ----

namespace {

// Unsets what mpirun and srun set, so that the driver starts no MPI.
class UnitDriver : public testing::Test {
 protected:
  void SetUp() override {
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"}) unsetenv(var);
    ASSERT_FALSE(launched_with_ranks());
    ASSERT_FALSE(MpiSession::running());
  }

  // Each unit in `units` computed once, recorded once with its payload, on rank 0.
  static void expect_each_once(const FakeJob& job, const std::vector<size_t>& units) {
    std::vector<size_t> computed = job.computed(), recorded = job.recorded_units();
    EXPECT_EQ(std::multiset<size_t>(computed.begin(), computed.end()),
              std::multiset<size_t>(units.begin(), units.end()));
    EXPECT_EQ(std::multiset<size_t>(recorded.begin(), recorded.end()),
              std::multiset<size_t>(units.begin(), units.end()));
    for (const FakeJob::Record& r : job.records) {
      EXPECT_EQ(r.result, payload_of(r.unit));
      EXPECT_EQ(r.rank, 0);
      EXPECT_GE(r.seconds, 0.0);
    }
  }

  static void expect_alone_load(const std::vector<RankLoad>& load) {
    ASSERT_EQ(load.size(), 1u);
    EXPECT_EQ(load[0].run, 0);
    EXPECT_EQ(load[0].rank, 0);
    EXPECT_EQ(load[0].host, host_name());
    EXPECT_GE(load[0].busy, 0.0);
  }
};

using RunUnits = UnitDriver;
using TaskFarm = UnitDriver;

}  // namespace

// Units 1, 4, 5 and 11 were done by an earlier run; finish's code is what the run returns.
TEST_F(UnitDriver, ComputesEachPendingUnitOnceAndFinishesWithOneRank) {
  FakeJob job(12);
  job.finished_before = {1, 4, 5, 11};
  job.finish_status = EXIT_MISMATCH;
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_MISMATCH);
  expect_each_once(job, {0, 2, 3, 6, 7, 8, 9, 10});
  EXPECT_EQ(job.overlaps.load(), 0);
  EXPECT_EQ(job.planned.rank, 0);
  EXPECT_EQ(job.planned.size, 1);
  std::vector<std::string> calls = job.calls();
  ASSERT_EQ(calls.size(), 4u + 8u);
  EXPECT_EQ(std::vector<std::string>(calls.begin(), calls.begin() + 3),
            (std::vector<std::string>{"plan", "open", "info"}));
  EXPECT_EQ(calls.back(), "finish");
  ASSERT_TRUE(job.finished);
  const UnitRun& run = *job.finished;
  EXPECT_EQ(run.ranks, 1);
  EXPECT_EQ(run.started, job.opened_at);
  EXPECT_EQ(run.started.size(), std::string("2026-11-30T18:45:56Z").size());
  EXPECT_GT(run.seconds, 0.0);
  expect_alone_load(run.load);
  // Without a file nothing is checkpointed.
  EXPECT_EQ(run.checkpoints, 0);
  EXPECT_EQ(job.writes.load(), 0);
  EXPECT_EQ(out.str(), "fake: 8 units recorded\n");
  EXPECT_EQ(err.str(), "");
}

// selfplay --sprt's hook: once the job has enough, no unit is handed out, and finish()
// follows with what was recorded. One unit at a time, so exactly units 0, 1, 2 run.
TEST_F(UnitDriver, EnoughStopsHandingOutUnitsAndFinishes) {
  FakeJob job(12);
  job.enough_after = 3;
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
  expect_each_once(job, {0, 1, 2});
  ASSERT_TRUE(job.finished);
  EXPECT_EQ(job.calls().back(), "finish");
  EXPECT_EQ(out.str(), "fake: 3 units recorded\n");
}

TEST_F(UnitDriver, NothingLeftComputesNothingAndStillFinishes) {
  FakeJob job(3);
  job.finished_before = {0, 1, 2};
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
  EXPECT_TRUE(job.computed().empty());
  EXPECT_TRUE(job.records.empty());
  ASSERT_TRUE(job.finished);
  expect_alone_load(job.finished->load);
}

// A refusal from plan() (every rank) or open() (rank 0) is the run's exit code, and nothing
// after it happens.
TEST_F(UnitDriver, RefusalReturnsItsCodeWithoutComputingOrFinishing) {
  struct Case {
    bool plan_refuses;
    int code;
    std::vector<std::string> calls;
    std::string err;
  } cases[] = {{true, EXIT_USAGE, {"plan"}, "fake: no plan\n"},
               {false, EXIT_IO, {"plan", "open"}, "fake: cannot open\n"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.err);
    FakeJob job(5);
    (c.plan_refuses ? job.plan_status : job.open_status) = c.code;
    std::ostringstream out, err;
    EXPECT_EQ(run_unit_job(job, out, err), c.code);
    EXPECT_EQ(job.calls(), c.calls);
    EXPECT_TRUE(job.records.empty());
    EXPECT_FALSE(job.finished);
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(err.str(), c.err);
  }
}

// Each unit waits until three run at once (or, if they never do, until a deadline).
TEST_F(UnitDriver, ConcurrencyRunsThatManyUnitsAtOnce) {
  FakeJob job(9);
  job.threads = 3;
  const auto deadline = Clock::now() + 30s;
  job.while_computing = [&](size_t) {
    while (job.most_running < 3 && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  };
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
  EXPECT_EQ(job.most_running.load(), 3);
  expect_each_once(job, range(0, 9));
  EXPECT_EQ(job.overlaps.load(), 0);
}

TEST_F(UnitDriver, AffinityKeepsTheSameUnitsAndResults) {
  auto results = [](bool with_affinity) {
    FakeJob job(40);
    job.threads = 2;
    job.finished_before = {3, 17, 39};
    if (with_affinity) job.key = [](size_t u) { return u % 5; };
    std::ostringstream out, err;
    EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
    EXPECT_EQ(job.computed().size(), 37u);
    std::map<size_t, Payload> got;
    for (FakeJob::Record& r : job.records) EXPECT_TRUE(got.emplace(r.unit, r.result).second) << r.unit;
    return got;
  };
  std::map<size_t, Payload> without = results(false), with = results(true);
  EXPECT_EQ(without.size(), 37u);
  EXPECT_EQ(with, without);
}

// With a file, rank 0's checkpoint thread saves while units run (the first unit waits for
// a save), and the run reports how many.
TEST_F(UnitDriver, CheckpointsWhileRunningWhenTheJobKeepsAFile) {
  FakeJob job(4);
  job.about.kept_in = "fake.h5";
  job.about.checkpoint_interval = 0.05;
  job.while_computing = [&](size_t) { eventually([&] { return job.writes >= 1; }); };
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
  expect_each_once(job, range(0, 4));
  ASSERT_TRUE(job.finished);
  EXPECT_GE(job.finished->checkpoints, 1);
  EXPECT_EQ(job.finished->checkpoints, job.writes.load());
  EXPECT_GT(job.finished->checkpoint_seconds, 0.0);
  EXPECT_EQ(job.overlaps.load(), 0);
}

// A job whose units need what rank 0 alone read (rescore's positions): compute_with gets,
// for each unit, the bytes unit_input gave for it; compute(unit) is never called.
TEST_F(UnitDriver, EachUnitIsComputedFromTheInputTheJobGaveForIt) {
  struct InputJob : FakeJob {
    using FakeJob::FakeJob;
    std::mutex mutex;
    std::map<size_t, Payload> got;
    std::atomic<int> plain{0};
    Payload unit_input(size_t unit) const override { return payload_of(1000 + unit); }
    Payload compute(size_t unit) override { return ++plain, FakeJob::compute(unit); }
    Payload compute_with(size_t unit, const Payload& input) override {
      {
        std::lock_guard lock(mutex);
        EXPECT_TRUE(got.emplace(unit, input).second) << unit;
      }
      return FakeJob::compute(unit);
    }
  } job(9);
  job.threads = 2;
  job.finished_before = {4};
  std::ostringstream out, err;
  EXPECT_EQ(run_unit_job(job, out, err), EXIT_OK);
  expect_each_once(job, {0, 1, 2, 3, 5, 6, 7, 8});
  EXPECT_EQ(job.plain.load(), 0);
  ASSERT_EQ(job.got.size(), 8u);
  for (const auto& [unit, input] : job.got) EXPECT_EQ(input, payload_of(1000 + unit)) << unit;
}

TEST_F(RunUnits, RecordsThePendingUnitsInTheGivenLedger) {
  FakeJob job(10);
  job.finished_before = {0, 9};
  Ledger ledger(job, nullptr);
  std::vector<RankLoad> load = run_units(job, ledger);
  expect_each_once(job, range(1, 9));
  expect_alone_load(load);
  EXPECT_EQ(job.calls(), std::vector<std::string>(8, "compute"));  // no plan, open or finish
}

// Alone, rank 0 computes every unit on its own threads; with one at a time, in the order given.
TEST_F(TaskFarm, AloneComputesEveryPendingUnitOnceInOrderOnRankZero) {
  std::mutex mutex;
  std::vector<size_t> computed, recorded;
  double recorded_seconds = 0;
  FarmTask task;
  task.compute = [&](size_t u, const Payload&) {
    {
      std::lock_guard lock(mutex);
      computed.push_back(u);
    }
    std::this_thread::sleep_for(2ms);
    return payload_of(u);
  };
  task.record = [&](size_t u, Payload&& result, double seconds, int rank) {
    std::lock_guard lock(mutex);
    recorded.push_back(u);
    recorded_seconds += seconds;
    EXPECT_EQ(result, payload_of(u));
    EXPECT_GE(seconds, 0.002);
    EXPECT_EQ(rank, 0);
  };
  const std::vector<size_t> pending{7, 3, 9, 0, 5};
  std::vector<RankLoad> load = run_farm(task, pending);
  EXPECT_EQ(computed, pending);
  EXPECT_EQ(recorded, pending);
  expect_alone_load(load);
  EXPECT_DOUBLE_EQ(load[0].busy, recorded_seconds);
  EXPECT_GE(load[0].idle, 0.0);
}

TEST_F(TaskFarm, AloneWithSeveralUnitsAtOnceComputesEachUnitOnce) {
  std::mutex mutex;
  std::multiset<size_t> computed, recorded;
  FarmTask task;
  task.concurrency = 3;
  task.affinity = [](size_t u) { return u % 4; };
  task.compute = [&](size_t u, const Payload&) {
    std::lock_guard lock(mutex);
    computed.insert(u);
    return payload_of(u);
  };
  task.record = [&](size_t u, Payload&& result, double, int rank) {
    std::lock_guard lock(mutex);
    recorded.insert(u);
    EXPECT_EQ(result, payload_of(u));
    EXPECT_EQ(rank, 0);
  };
  const std::vector<size_t> pending = range(100, 300);
  std::vector<RankLoad> load = run_farm(task, pending);
  const std::multiset<size_t> each_once(pending.begin(), pending.end());
  EXPECT_EQ(computed, each_once);
  EXPECT_EQ(recorded, each_once);
  expect_alone_load(load);
}

// With an input, each unit is computed from the bytes input() gave for it, asked once a unit.
TEST_F(TaskFarm, AloneComputesEachUnitFromItsInput) {
  std::mutex mutex;
  std::multiset<size_t> asked;
  FarmTask task;
  task.concurrency = 2;
  task.input = [&](size_t u) {
    std::lock_guard lock(mutex);
    asked.insert(u);
    return payload_of(u * 3);
  };
  task.compute = [](size_t u, const Payload& input) {
    EXPECT_EQ(input, payload_of(u * 3)) << u;
    return input;
  };
  std::map<size_t, Payload> recorded;
  task.record = [&](size_t u, Payload&& result, double, int) {
    std::lock_guard lock(mutex);
    EXPECT_TRUE(recorded.emplace(u, std::move(result)).second) << u;
  };
  const std::vector<size_t> pending = range(0, 50);
  run_farm(task, pending);
  EXPECT_EQ(asked, std::multiset<size_t>(pending.begin(), pending.end()));
  ASSERT_EQ(recorded.size(), pending.size());
  for (const auto& [unit, result] : recorded) EXPECT_EQ(result, payload_of(unit * 3)) << unit;
}

TEST_F(TaskFarm, NothingPendingComputesNothingAndReportsTheLoad) {
  std::atomic<int> calls{0};
  FarmTask task;
  task.compute = [&](size_t, const Payload&) { return ++calls, Payload{}; };
  task.record = [&](size_t, Payload&&, double, int) { ++calls; };
  expect_alone_load(run_farm(task, {}));
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(gather_hosts(), std::vector<std::string>{host_name()});
}
