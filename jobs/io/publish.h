// Finished files put in place, one way for every file a command writes: written whole
// beside their name as NAME.partial, then synced and renamed over NAME, so that a reader
// never finds half a file under the name. What may be written over is decided here too:
// a regular file only, never a device, fifo, socket or directory, and a symbolic link
// given as the name is followed to the file it names, which is written (the link stays).
#pragma once

#include <fstream>
#include <string>

namespace chesshpc {

// The file a write to path lands in: path itself, or, when path is a symbolic link, the
// file its chain of links names (relative links read from their own directory). Resolved
// once, when the writer starts; a dangling link names the file it would create.
std::string publish_target(const std::string& path);

// Why path may not be written over: "" when it does not exist or is a regular file (after
// following symbolic links), else what it is: "it is a directory", "it is a character
// device, not a regular file", ...
std::string not_a_regular_file(const std::string& path);

// Syncs partial (closed, written whole) to disk and renames it over target (a
// publish_target). "" when it is in place, else why not in one line; a target that is no
// longer a regular file is left as it is and partial removed.
std::string publish(const std::string& partial, const std::string& target);

// A file written as a stream and published whole: opens publish_target(path).partial at
// once; commit() closes, syncs and renames it over the target ("" when in place, else why
// not). A file never committed is removed when this ends, so a failed or abandoned write
// leaves nothing beside the name.
class PublishedFile {
 public:
  explicit PublishedFile(const std::string& path);
  ~PublishedFile();
  PublishedFile(const PublishedFile&) = delete;
  PublishedFile& operator=(const PublishedFile&) = delete;

  std::ostream& stream() { return file_; }
  std::string commit();

 private:
  std::string path_, target_, partial_;
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace chesshpc
