#include "jobs/dataset/print.h"

#include <cstdio>
#include <functional>

#include "jobs/dataset/records.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/byte_source.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"

namespace chesshpc {

namespace {

std::string file_name(const DatasetFile& f) {
  return (f.path.empty() ? std::string("standard output") : "'" + f.path + "'") + " (" + std::string(f.format->name) +
         ")";
}

}  // namespace

void print_summary(const DatasetSummary& s, bool json, std::ostream& out, std::ostream& err) {
  if (json) {
    JsonObject o;
    o.add("command", s.command);
    std::string inputs = "[";
    for (const DatasetFile& f : s.in)
      inputs.append(inputs.size() > 1 ? "," : "")
          .append(JsonObject().add("path", f.path).add("format", f.format->name).str());
    o.raw("in", inputs + "]");
    o.add("out", JsonObject().add("path", s.out.path).add("format", s.out.format->name));
    o.add("records_read", (unsigned long long)s.read).add("records_written", (unsigned long long)s.written);
    JsonObject left;
    for (const auto& [why, n] : s.left_out) left.add(why, (unsigned long long)n);
    o.add("left_out", left);
    o.add("bytes_read", (unsigned long long)s.bytes_read).add("bytes_written", (unsigned long long)s.bytes_written);
    if (s.command == "shuffle")
      o.add("runs", (unsigned long long)s.runs)
          .add("merge_passes", (unsigned long long)s.merge_passes)
          .add("temp_bytes_written", (unsigned long long)s.temp_written)
          .add("temp_bytes_read", (unsigned long long)s.temp_read);
    o.add("seconds", s.seconds);
    out << o.str() << "\n";
    return;
  }
  std::string line = "chesshpc " + s.command + ": " + std::to_string(s.read) + " records read from ";
  for (size_t i = 0; i < s.in.size(); ++i) line += (i ? ", " : "") + file_name(s.in[i]);
  line +=
      ", " + std::to_string(s.written) + " written to " + file_name(s.out) + " (" + format_size(s.bytes_written) + ")";
  const char* sep = "; left out: ";
  for (const auto& [why, n] : s.left_out) line += sep + std::to_string(n) + " " + why, sep = ", ";
  if (s.command == "shuffle") {
    char per[96];
    const double n = double(std::max<uint64_t>(s.read, 1));
    std::snprintf(per, sizeof per, "; %llu runs, %llu merge passes, %.1f bytes read and %.1f written a record",
                  (unsigned long long)s.runs, (unsigned long long)s.merge_passes,
                  double(s.bytes_read + s.temp_read) / n, double(s.bytes_written + s.temp_written) / n);
    line += per;
  }
  err << line << "\n";
}

int run_guarded(const std::string& command, const std::string& input, std::ostream& err,
                const std::function<int()>& f) {
  try {
    return f();
  } catch (const DatasetError& e) {
    err << "chesshpc " << command << ": '" << input << "' " << e.what() << "\n";
    return EXIT_INPUT;
  } catch (const ReadError& e) {
    err << "chesshpc " << command << ": " << e.what() << "\n";
    return e.exit_code();
  } catch (const h5::Error& e) {
    err << "chesshpc " << command << ": " << e.what() << "\n";
    return EXIT_IO;
  } catch (const WriteError& e) {
    err << "chesshpc " << command << ": " << e.what() << "\n";
    return EXIT_IO;
  } catch (const std::ios_base::failure& e) {
    err << "chesshpc " << command << ": " << e.what() << "\n";
    return EXIT_IO;
  }
}

}  // namespace chesshpc
