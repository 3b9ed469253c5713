#include "fakes/prices_server/page_cache.h"

#include <utility>

namespace azure_pricing::fakes::prices {
namespace {

size_t Cost(const std::string& key, const HttpResponse& answer) {
  return key.size() + answer.body.size() + answer.content_type.size() + sizeof(HttpResponse);
}

}  // namespace

std::shared_ptr<const HttpResponse> PageCache::Answer(const Catalog& catalog,
                                                      std::string_view target, int page_size) {
  if (max_bytes_ == 0) {
    return std::make_shared<const HttpResponse>(HandlePrices(catalog, target, page_size));
  }
  std::string key = std::to_string(page_size) + " " + std::string(target);
  if (std::shared_ptr<const HttpResponse> cached = Find(key)) return cached;
  auto answer = std::make_shared<const HttpResponse>(HandlePrices(catalog, target, page_size));
  Keep(std::move(key), answer);
  return answer;
}

std::shared_ptr<const HttpResponse> PageCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return nullptr;
  recent_.splice(recent_.begin(), recent_, it->second);
  ++hits_;
  return it->second->answer;
}

void PageCache::Keep(std::string key, std::shared_ptr<const HttpResponse> answer) {
  const size_t cost = Cost(key, *answer);
  if (cost > max_bytes_ / 4) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (by_key_.count(key) > 0) return;  // another thread computed it meanwhile
  recent_.push_front({std::move(key), std::move(answer)});
  by_key_.emplace(recent_.front().key, recent_.begin());
  bytes_ += cost;
  while (bytes_ > max_bytes_) {
    const Entry& oldest = recent_.back();
    bytes_ -= Cost(oldest.key, *oldest.answer);
    by_key_.erase(oldest.key);
    recent_.pop_back();
  }
}

size_t PageCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

size_t PageCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

}  // namespace azure_pricing::fakes::prices
