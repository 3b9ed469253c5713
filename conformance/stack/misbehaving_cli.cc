// A CLI that misbehaves inside the real sandbox, placed at /usr/local/bin/azmcp by the faults
// test. The tool's argv and environment are fixed, so nothing a call sends can choose the
// misbehaviour: each is its own binary, built from this file with MISBEHAVIOUR defined (BUILD
// lists them), and the test assembles one image per binary.
//
//   hang            never exits, never writes
//   flood_stdout    writes to stdout without end
//   flood_stderr    writes to stderr without end
//   orphan          leaves a detached child and grandchild (comm "apc-orphan") holding stdout,
//                   then prints an empty success envelope and exits 0
//   exit_mid_write  writes half of a success envelope and exits 0
//   invalid_utf8    prints a success envelope whose message holds the bytes C3 28
//   stderr_note     prints an empty success envelope and one line on stderr, exits 0
//   direct_network  tries the network without HTTPS_PROXY: TCP to 127.0.0.1 and ::1 on the port
//                   given as --sku (the test passes the fake API's), to outside addresses, UDP
//                   to a resolver, and asks the proxy for hosts it must refuse; prints what
//                   happened as JSON and exits 3
//   env_credentials prints its environment, every visible process's environment and whether
//                   credential files exist, as JSON, and exits 3
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef MISBEHAVIOUR
#error "build with MISBEHAVIOUR defined (see conformance/stack/BUILD)"
#endif
// The define is a bare word (no quotes to survive Bazel's and the shell's quoting).
#define MISBEHAVIOUR_NAME_(x) #x
#define MISBEHAVIOUR_NAME(x) MISBEHAVIOUR_NAME_(x)

extern char** environ;

namespace {

using Json = nlohmann::json;

constexpr char kEmptySuccess[] =
    R"({"status":200,"message":"Success","results":{"prices":[]},"duration":1})";

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(0);  // the reader is gone: the budget killed the call
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

[[noreturn]] void Hang() {
  for (;;) pause();
}

[[noreturn]] void Flood(int fd) {
  const std::string chunk(64 * 1024, 'x');
  for (;;) WriteAll(fd, chunk);
}

// A child that leaves the process group and a grandchild under it, both keeping stdout open and
// sleeping: only the PID namespace's end can stop them.
int Orphan() {
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    prctl(PR_SET_NAME, "apc-orphan");
    if (fork() == 0) prctl(PR_SET_NAME, "apc-orphan");
    for (;;) sleep(3600);
  }
  usleep(200 * 1000);  // the child is surely running when the result is printed
  WriteAll(1, kEmptySuccess);
  return 0;
}

int ExitMidWrite() {
  const std::string_view envelope = kEmptySuccess;
  WriteAll(1, envelope.substr(0, envelope.size() / 2));
  _exit(0);
}

int InvalidUtf8() {
  WriteAll(1, "{\"status\":200,\"message\":\"Success \xC3\x28\",\"results\":{\"prices\":[]},"
              "\"duration\":1}");
  return 0;
}

int StderrNote() {
  WriteAll(1, kEmptySuccess);
  WriteAll(2, "note: a warning the tool must not ignore\n");
  return 0;
}

std::string ErrnoName(int e) {
  switch (e) {
    case ENETUNREACH: return "ENETUNREACH";
    case ECONNREFUSED: return "ECONNREFUSED";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    default: return "errno " + std::to_string(e);
  }
}

// A connect with a 2 s deadline; the error's name, or "" when it connected.
std::string ConnectWithin(int fd, const sockaddr* address, socklen_t length) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (connect(fd, address, length) == 0) return "";
  if (errno != EINPROGRESS) return ErrnoName(errno);
  pollfd p{fd, POLLOUT, 0};
  if (poll(&p, 1, 2000) <= 0) return "ETIMEDOUT";
  int error = 0;
  socklen_t size = sizeof error;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
  return error == 0 ? "" : ErrnoName(error);
}

Json TryTcp(const std::string& host, int port) {
  Json attempt = {{"to", host + ":" + std::to_string(port)}, {"kind", "tcp"}};
  sockaddr_storage address{};
  socklen_t length = 0;
  const bool v6 = host.find(':') != std::string::npos;
  if (v6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&address);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET6, host.c_str(), &a->sin6_addr);
    length = sizeof *a;
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&address);
    a->sin_family = AF_INET;
    a->sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, host.c_str(), &a->sin_addr);
    length = sizeof *a;
  }
  const int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    attempt["connected"] = false;
    attempt["error"] = "socket: " + ErrnoName(errno);
    return attempt;
  }
  const std::string error = ConnectWithin(fd, reinterpret_cast<sockaddr*>(&address), length);
  close(fd);
  attempt["connected"] = error.empty();
  attempt["error"] = error;
  return attempt;
}

Json TryUdp(const std::string& host, int port) {
  Json attempt = {{"to", host + ":" + std::to_string(port)}, {"kind", "udp"}};
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  const ssize_t sent =
      fd < 0 ? -1 : sendto(fd, "x", 1, 0, reinterpret_cast<sockaddr*>(&a), sizeof a);
  attempt["connected"] = sent == 1;
  attempt["error"] = sent == 1 ? "" : ErrnoName(errno);
  if (fd >= 0) close(fd);
  return attempt;
}

// Sends `request` to the sandbox's proxy port and keeps the first line of the answer.
Json AskProxy(const std::string& what, const std::string& request) {
  Json attempt = {{"to", "127.0.0.1:3128"}, {"kind", what}};
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(3128);
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const std::string error =
      fd < 0 ? "socket" : ConnectWithin(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  attempt["connected"] = error.empty();
  attempt["error"] = error;
  std::string answer;
  if (error.empty()) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    (void)!write(fd, request.data(), request.size());
    pollfd p{fd, POLLIN, 0};
    char buf[512];
    ssize_t n = 0;
    if (poll(&p, 1, 5000) > 0 && (n = read(fd, buf, sizeof buf)) > 0) answer.assign(buf, n);
  }
  if (fd >= 0) close(fd);
  attempt["answer"] = answer.substr(0, answer.find("\r\n"));
  return attempt;
}

int DirectNetwork(int argc, char** argv) {
  int port = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--sku") port = std::atoi(argv[i + 1]);
  }
  const std::string target = "127.0.0.1:" + std::to_string(port);
  Json attempts = Json::array();
  attempts.push_back(TryTcp("127.0.0.1", port));
  attempts.push_back(TryTcp("::1", port));
  attempts.push_back(TryTcp("1.1.1.1", 443));
  attempts.push_back(TryTcp("8.8.8.8", 53));
  attempts.push_back(TryTcp("10.0.2.2", port));
  attempts.push_back(TryUdp("8.8.8.8", 53));
  attempts.push_back(AskProxy("proxy_connect_api_port",
                              "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n"));
  attempts.push_back(AskProxy("proxy_connect_other_host",
                              "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n"));
  attempts.push_back(AskProxy("proxy_plain_get",
                              "GET http://" + target + "/api/retail/prices HTTP/1.1\r\nHost: " +
                                  target + "\r\n\r\n"));
  WriteAll(1, Json({{"attempts", attempts}}).dump() + "\n");
  return 3;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Json VisibleEnvironments() {
  Json all = Json::object();
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return all;
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string text = ReadWhole(std::string("/proc/") + e->d_name + "/environ");
    Json entries = Json::array();
    for (size_t at = 0; at < text.size();) {
      const size_t end = text.find('\0', at);
      entries.push_back(text.substr(at, end - at));
      at = end == std::string::npos ? text.size() : end + 1;
    }
    all[e->d_name] = entries;
  }
  closedir(proc);
  return all;
}

int EnvCredentials() {
  Json env = Json::array();
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  Json files = Json::object();
  const char* home = std::getenv("HOME");
  for (const std::string& path :
       {std::string("/root/.azure"), std::string("/home"), std::string("/etc/shadow"),
        std::string("/var/run/secrets"), std::string("/run/secrets"),
        std::string(home != nullptr ? home : "/nonexistent") + "/.azure"}) {
    files[path] = access(path.c_str(), F_OK) == 0;
  }
  const Json out = {{"env", env}, {"process_environments", VisibleEnvironments()},
                    {"files", files}};
  WriteAll(1, out.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  const std::string_view behaviour = MISBEHAVIOUR_NAME(MISBEHAVIOUR);
  if (behaviour == "hang") Hang();
  if (behaviour == "flood_stdout") Flood(1);
  if (behaviour == "flood_stderr") Flood(2);
  if (behaviour == "orphan") return Orphan();
  if (behaviour == "exit_mid_write") return ExitMidWrite();
  if (behaviour == "invalid_utf8") return InvalidUtf8();
  if (behaviour == "stderr_note") return StderrNote();
  if (behaviour == "direct_network") return DirectNetwork(argc, argv);
  if (behaviour == "env_credentials") return EnvCredentials();
  return 64;
}
