// ssac/workers.hpp.
#include "ssac/workers.hpp"

#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "ssac/error.hpp"

namespace ssac {

void run_workers(unsigned threads, const std::function<void()>& work,
                 const std::function<void()>& stop, const std::function<void()>& meanwhile) {
  if (threads == 0) threads = 1;
  std::mutex mu;
  std::exception_ptr error;
  auto worker = [&] {
    try {
      work();
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
      }
      stop();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  auto stop_and_join = [&] {
    stop();
    for (auto& t : pool)
      t.join();
  };
  for (unsigned t = 0; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error& e) {
      // A thread destroyed while joinable would call std::terminate: the started ones stop and
      // are joined first.
      stop_and_join();
      throw DataError("cannot start worker thread " + std::to_string(t + 1) + " of " +
                      std::to_string(threads) + " (" + e.what() + "); pass a smaller --threads");
    }
  }
  if (meanwhile) {
    try {
      meanwhile();
    } catch (...) {
      stop_and_join();
      throw;
    }
  }
  for (auto& t : pool)
    t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace ssac
