// The TLS stream https-get speaks HTTP/1.1 over (https_get.cc), and responses read from it one
// after another. On a kept-alive connection the next response starts where this one's body ends,
// so every response is read exactly to its end: Content-Length, chunked framing, or (the only
// way a response without either can end) the connection's close.
#ifndef CONFORMANCE_BACKEND_PROBE_HTTPS_WIRE_H_
#define CONFORMANCE_BACKEND_PROBE_HTTPS_WIRE_H_

#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "conformance/backend/probe/net_io.h"
#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {

inline constexpr size_t kMaxHeadBytes = 64 * 1024;
inline constexpr size_t kMaxBodyBytes = 16 * 1024 * 1024;

// Why the last OpenSSL call on `ssl` failed, for a report; `reason` is its SSL_get_error.
std::string SslErrorText(SSL* ssl, int reason);

// Runs one OpenSSL call on the non-blocking socket, waiting as OpenSSL asks, until it succeeds
// (its result), the peer closes cleanly (0) or it fails or the deadline passes (-1, `error`).
template <typename Call>
int SslRun(SSL* ssl, int fd, const Deadline& deadline, Call call, std::string& error) {
  for (;;) {
    ERR_clear_error();
    errno = 0;
    const int rc = call();
    if (rc > 0) return rc;
    const int reason = SSL_get_error(ssl, rc);
    if (reason == SSL_ERROR_ZERO_RETURN) return 0;
    const short events = reason == SSL_ERROR_WANT_READ    ? POLLIN
                         : reason == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                          : 0;
    if (events == 0) {
      error = SslErrorText(ssl, reason);
      return -1;
    }
    if (!WaitFor(fd, events, deadline)) {
      error = "timed out";
      return -1;
    }
  }
}

// One TLS connection under the command's deadline, and what was read from it but belongs to no
// response yet: a server may send the next response in the same record as this one's end.
struct TlsStream {
  SSL* ssl;
  int fd;
  const Deadline& deadline;
  std::string pending;
  // Nothing more can be read as HTTP: the peer closed, a read failed or timed out, a response
  // could not be delimited, or the server switched protocols (101).
  bool ended = false;
  // When set, every byte read from the connection is appended here too, as it came.
  std::string* record = nullptr;
};

// The whole of `data`; false with `error` when the peer went away or the deadline passed.
bool SslWriteAll(TlsStream& stream, std::string_view data, std::string& error);

struct HttpResponse {
  int status = 0;         // 0: no status line was read
  size_t body_bytes = 0;  // payload bytes, chunk framing excluded
  // Read to its end, so the stream stands at the next response (unless it ended).
  bool complete = false;
  std::string error;  // empty when the response was read whole
};

// The next final response (interim 1xx ones are skipped) read to its end. `head_request`: the
// request was HEAD, whose response announces a body it never sends.
HttpResponse ReadResponse(TlsStream& stream, bool head_request);

// The status code of "HTTP/1.x NNN ...", or 0 when the head is not an HTTP response.
int StatusOf(std::string_view head);
std::string FirstLine(std::string_view head);

}  // namespace azure_pricing::conformance::backend::probe

#endif  // CONFORMANCE_BACKEND_PROBE_HTTPS_WIRE_H_
