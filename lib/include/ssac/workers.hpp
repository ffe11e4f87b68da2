// The pool of worker threads that runs independent reps (ssac experiment; ssac calibrate and
// ssac harden through their counter). Each worker takes reps from a shared counter until none is
// left, so the results do not depend on the number of threads; the pool only starts, stops and
// joins them.
#pragma once

#include <functional>

namespace ssac {

// Runs work() on `threads` threads (at least one) and returns when every one has ended.
//  - The first exception a worker throws is kept, stop() is called so that the others end early,
//    and the exception is rethrown here once all threads are joined.
//  - A thread the system refuses to start (an address-space or process limit) does not end the
//    program (std::terminate): stop() is called, the started threads are joined, and DataError
//    "cannot start worker thread T of N (REASON); pass a smaller --threads" is thrown.
//  - `meanwhile`, when given, runs on the calling thread once every worker has started (a progress
//    display); if it throws, the workers are stopped and joined before the exception goes on.
// stop() may be called from any thread and more than once.
void run_workers(unsigned threads, const std::function<void()>& work,
                 const std::function<void()>& stop, const std::function<void()>& meanwhile = {});

}  // namespace ssac
