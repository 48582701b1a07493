#include "jobs/io/publish.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace chesshpc {

namespace fs = std::filesystem;

namespace {

// Links followed at most, as the kernel's own limit (ELOOP past it).
constexpr int MAX_LINKS = 40;

const char* kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::fifo: return "a fifo";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

std::string publish_target(const std::string& path) {
  std::error_code ec;
  fs::path at = path;
  for (int links = 0; links < MAX_LINKS && fs::is_symlink(fs::symlink_status(at, ec)); ++links) {
    const fs::path target = fs::read_symlink(at, ec);
    if (ec) break;
    at = target.is_absolute() || !at.has_parent_path() ? target : at.parent_path() / target;
  }
  return at.string();
}

std::string not_a_regular_file(const std::string& path) {
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();
  if (type == fs::file_type::none && ec) return ec.message();  // a loop of links, a directory not searchable
  if (type == fs::file_type::not_found || type == fs::file_type::none || type == fs::file_type::regular) return "";
  if (type == fs::file_type::directory) return "it is a directory";
  return std::string("it is ") + kind_of(type) + ", not a regular file";
}

std::string publish(const std::string& partial, const std::string& target) {
  int fd = open(partial.c_str(), O_RDONLY);
  if (fd < 0 || fsync(fd) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    return "cannot sync '" + partial + "': " + why;
  }
  close(fd);
  if (const std::string why = not_a_regular_file(target); !why.empty()) {
    std::remove(partial.c_str());
    return "cannot write '" + target + "': " + why;
  }
  if (std::rename(partial.c_str(), target.c_str()) != 0)
    return "cannot rename '" + partial + "' to '" + target + "': " + std::strerror(errno);
  return "";
}

PublishedFile::PublishedFile(const std::string& path)
    : path_(path), target_(publish_target(path)), partial_(target_ + ".partial") {
  file_.open(partial_, std::ios::binary | std::ios::trunc);
}

PublishedFile::~PublishedFile() {
  if (!committed_) std::remove(partial_.c_str());
}

std::string PublishedFile::commit() {
  file_.close();
  if (!file_) return "cannot write '" + path_ + "': " + std::strerror(errno);
  if (std::string why = publish(partial_, target_); !why.empty()) return why;
  committed_ = true;
  return "";
}

}  // namespace chesshpc
