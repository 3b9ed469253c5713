#include "conformance/backend/probe/https_wire.h"

#include <openssl/x509_vfy.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>

namespace azure_pricing::conformance::backend::probe {
namespace {

// Longest chunk-size line accepted (chunk extensions included); trailers share the head's bound.
constexpr size_t kMaxChunkLineBytes = 4096;

// Appends one SSL_read's worth to `pending`: bytes read, 0 at the end, -1 with `error`. Either
// of the last two ends the stream for good.
int ReadMore(TlsStream& s, std::string& error) {
  if (s.ended) return 0;
  char buffer[16384];
  const int n = SslRun(
      s.ssl, s.fd, s.deadline, [&] { return SSL_read(s.ssl, buffer, sizeof buffer); }, error);
  if (n > 0) {
    s.pending.append(buffer, static_cast<size_t>(n));
    if (s.record != nullptr) s.record->append(buffer, static_cast<size_t>(n));
  } else {
    s.ended = true;
  }
  return n;
}

// The bytes through the first `delimiter`, taken off the stream; nullopt with `error` when the
// stream ends or fails first, or `limit` bytes hold no delimiter. `what` names the part read.
std::optional<std::string> TakeThrough(TlsStream& s, std::string_view delimiter, size_t limit,
                                       std::string_view what, std::string& error) {
  size_t at;
  while ((at = s.pending.find(delimiter)) == std::string::npos || at + delimiter.size() > limit) {
    if (s.pending.size() >= limit) {
      error = std::string(what) + " too large";
      return std::nullopt;
    }
    const bool nothing_yet = s.pending.empty();
    std::string failure;
    const int n = ReadMore(s, failure);
    if (n == 0) {
      error = "connection closed " + std::string(nothing_yet ? "before a " : "inside a ") +
              std::string(what);
    } else if (n < 0) {
      error = "reading a " + std::string(what) + ": " + failure;
    }
    if (n <= 0) return std::nullopt;
  }
  std::string taken = s.pending.substr(0, at + delimiter.size());
  s.pending.erase(0, at + delimiter.size());
  return taken;
}

// Consumes `size` body bytes, counting them into `counted` as they come (a cut-off body still
// reports how much of it arrived).
bool SkipBody(TlsStream& s, size_t size, size_t& counted, std::string& error) {
  for (;;) {
    const size_t take = std::min(size, s.pending.size());
    s.pending.erase(0, take);
    size -= take;
    counted += take;
    if (size == 0) return true;
    std::string failure;
    const int n = ReadMore(s, failure);
    if (n == 0) error = "connection closed before the end of the body";
    if (n < 0) error = "reading the body: " + failure;
    if (n <= 0) return false;
  }
}

// The value of a header in a response head (case-insensitive name), trimmed; nullopt if absent.
std::optional<std::string> HeaderValue(std::string_view head, std::string_view name) {
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const size_t at = lower.find("\r\n" + std::string(name) + ":");
  if (at == std::string::npos) return std::nullopt;
  const size_t start = at + 3 + name.size();
  std::string value(head.substr(start, head.find('\r', start) - start));
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t") + 1);
  return value;
}

// Trailer fields after the last chunk, through the blank line that ends the message.
bool ReadTrailer(TlsStream& s, HttpResponse& r) {
  size_t total = 0;
  for (;;) {
    const std::optional<std::string> line =
        TakeThrough(s, "\r\n", kMaxHeadBytes - total, "chunked trailer", r.error);
    if (!line) return false;
    if (*line == "\r\n") return true;
    total += line->size();
  }
}

bool ReadChunked(TlsStream& s, HttpResponse& r) {
  for (;;) {
    const std::optional<std::string> line =
        TakeThrough(s, "\r\n", kMaxChunkLineBytes, "chunk size line", r.error);
    if (!line) return false;
    size_t size = 0;
    const char* const first = line->data();
    const auto [end, parsed] = std::from_chars(first, first + line->size(), size, 16);
    // After the hex digits only a chunk extension (";..."), whitespace or the line's end.
    if (parsed != std::errc() || end == first ||
        std::string_view(";\r \t").find(*end) == std::string_view::npos) {
      r.error = "malformed chunk size line";
      return false;
    }
    if (size == 0) return ReadTrailer(s, r);
    if (size > kMaxBodyBytes - r.body_bytes) {
      r.error = "response body over 16 MiB";
      return false;
    }
    if (!SkipBody(s, size, r.body_bytes, r.error)) return false;
    const std::optional<std::string> crlf = TakeThrough(s, "\r\n", 2, "chunk end", r.error);
    if (!crlf) return false;
  }
}

// A body with no length: it ends where the connection does, so nothing can follow it.
bool ReadUntilClose(TlsStream& s, HttpResponse& r) {
  for (;;) {
    r.body_bytes += s.pending.size();
    s.pending.clear();
    if (r.body_bytes > kMaxBodyBytes) {
      r.error = "response body over 16 MiB";
      return false;
    }
    std::string failure;
    const int n = ReadMore(s, failure);
    if (n == 0) return true;
    if (n < 0) {
      r.error = "reading the body: " + failure;
      return false;
    }
  }
}

// Only a final "chunked" coding frames the body; with any other the body runs to the close
// (RFC 9112 section 6.3).
bool EndsWithChunked(std::string value) {
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return value.ends_with("chunked");
}

bool ReadBody(TlsStream& s, const std::string& head, bool head_request, HttpResponse& r) {
  if (r.status == 101) {
    s.ended = true;  // what follows is another protocol's bytes
    return true;
  }
  if (head_request || r.status == 204 || r.status == 304) return true;
  if (const std::optional<std::string> coding = HeaderValue(head, "transfer-encoding")) {
    return EndsWithChunked(*coding) ? ReadChunked(s, r) : ReadUntilClose(s, r);
  }
  const std::optional<std::string> length_text = HeaderValue(head, "content-length");
  if (!length_text) return ReadUntilClose(s, r);
  const std::optional<long long> length = ParseInteger(*length_text, 0, 1LL << 50);
  if (!length) {
    r.error = "malformed Content-Length: " + *length_text;
    return false;
  }
  const size_t wanted = static_cast<size_t>(*length);
  if (!SkipBody(s, std::min(wanted, kMaxBodyBytes), r.body_bytes, r.error)) return false;
  if (wanted <= kMaxBodyBytes) return true;
  r.error = "response body over 16 MiB";
  return false;
}

}  // namespace

std::string SslErrorText(SSL* ssl, int reason) {
  const long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    return std::string("certificate verify failed: ") + X509_verify_cert_error_string(verify);
  }
  if (const unsigned long e = ERR_peek_error(); e != 0) {
    char text[256];
    ERR_error_string_n(e, text, sizeof text);
    return text;
  }
  if (reason == SSL_ERROR_SYSCALL) return errno != 0 ? std::strerror(errno) : "connection closed";
  return "TLS error " + std::to_string(reason);
}

bool SslWriteAll(TlsStream& s, std::string_view data, std::string& error) {
  // SSL_write without partial writes: it returns only once all of `data` is in records.
  const int n = SslRun(
      s.ssl, s.fd, s.deadline,
      [&] { return SSL_write(s.ssl, data.data(), static_cast<int>(data.size())); }, error);
  if (n == 0) error = "connection closed";
  if (n <= 0) s.ended = true;
  return n > 0;
}

HttpResponse ReadResponse(TlsStream& s, bool head_request) {
  HttpResponse r;
  std::optional<std::string> head;
  // Interim responses (100 Continue, 103 Early Hints) come before the final one; 101 is final.
  do {
    head = TakeThrough(s, "\r\n\r\n", kMaxHeadBytes, "response head", r.error);
    if (!head) return r;
    r.status = StatusOf(*head);
  } while (r.status >= 100 && r.status < 200 && r.status != 101);
  if (r.status == 0) {
    r.error = "not an HTTP response: " + FirstLine(*head);
    s.ended = true;
    return r;
  }
  r.complete = ReadBody(s, *head, head_request, r);
  // A response not read to its end leaves no way to tell where the next one would start.
  if (!r.complete) s.ended = true;
  return r;
}

int StatusOf(std::string_view head) {
  if (!head.starts_with("HTTP/1.") || head.size() < 12 || head[8] != ' ') return 0;
  const std::optional<long long> code = ParseInteger(head.substr(9, 3), 100, 999);
  return code ? static_cast<int>(*code) : 0;
}

std::string FirstLine(std::string_view head) {
  return std::string(head.substr(0, head.find('\r')));
}

}  // namespace azure_pricing::conformance::backend::probe
