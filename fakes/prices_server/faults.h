// The fake price API's fault engine: the faults queued by --faults and POST /_admin/faults, and
// how each one changes the answer to the next API request (prices_server --help lists them).
//
//   FaultQueue faults;
//   faults.Add(Json::parse(R"([{"status": 429, "retry_after": 2}, {"drop": true}])"), error);
//   if (std::optional<Json> fault = faults.Next()) ServeFaulted(faults, *fault, answer, req, res);
//
// The drop fault needs the socket under a request. A TLS request carries it (req.ssl); for plain
// HTTP, which hands a handler none, MakePlainServer's server serves each connection itself and so
// knows it. No descriptor is ever found by scanning the process's open files.
#ifndef FAKES_PRICES_SERVER_FAULTS_H_
#define FAKES_PRICES_SERVER_FAULTS_H_

#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "fakes/prices_server/price_api.h"

namespace httplib {
struct Request;
struct Response;
class Server;
}  // namespace httplib

namespace azure_pricing::fakes::prices {

using Json = nlohmann::ordered_json;

// Why `fault` is not a fault ("unknown fault key: K", "K must be ..."); empty when it is one.
std::string FaultProblem(const Json& fault);

// The faults for the next API requests, in order, each for its `times` (default 1). Safe to use
// from the server's threads at once.
class FaultQueue {
 public:
  // Appends the faults of `list` (a JSON array). Checked whole before any is queued, so a list
  // with a bad one is refused whole (false, with `error` naming the problem) and serving a fault
  // never meets a value of the wrong type.
  bool Add(const Json& list, std::string& error);
  void Clear();
  // The fault for the next API request, counted against its `times`; nullopt when none is queued.
  std::optional<Json> Next();
  // Queues `fault` for one more request, ahead of the others.
  void PushFront(const Json& fault);

 private:
  struct Entry {
    Json spec;
    int remaining = 1;
  };
  std::mutex mu_;
  std::deque<Entry> entries_;
};

// Serves `answer` into `res` as `fault` says: late, with another status and the API's error
// body, another body, another NextPageLink, an endless empty page (queued again on `queue` when
// the fault has no `times`), cut after the head or N body bytes, or dropped with a TCP reset
// before any byte.
void ServeFaulted(FaultQueue& queue, const Json& fault, HttpResponse answer,
                  const httplib::Request& req, httplib::Response& res);

// A plain-HTTP server that serves each connection itself, so ConnectionSocket knows the socket
// of every request it handles. Configure and bind it like any httplib::Server.
std::unique_ptr<httplib::Server> MakePlainServer();

// The socket `req` arrived on: from its TLS session, or from the MakePlainServer connection this
// thread is serving; -1 for a request of any other server.
int ConnectionSocket(const httplib::Request& req);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_FAULTS_H_
