/// \file
/// \brief Step 09's schedule: when each worker's chunks start computing, when it takes them from
/// the queue, and how its first chunk is split. The worker (chunk_stream.hip) only follows these
/// formulas; they are pure host code, no HIP, so they have unit tests of their own.
#pragma once

#include <cstddef>

#include "planner.hpp"

namespace step09 {

/// The step in which a worker's `local`-th chunk (0, 1, 2, ... in the order it took them) starts
/// computing, with `panels` panels of B. Pairs of chunks join a step apart, a pair every `panels`
/// steps: 0, 1, P, P + 1, 2P, 2P + 1, ... Each chunk computes for P steps (one per panel), so two
/// chunks compute in every step but the first and the last, and every panel copied serves both.
/// With one panel (B stays on the device) there is nothing to share: one chunk per step.
std::size_t join_step(std::size_t local, std::size_t panels);

/// The step in which a worker takes its `local`-th chunk (local >= 1; the first is taken before
/// step 0) from the queue and queues the copy of its rows of A, after that step's panel of B.
///  - The second chunk of a pair is taken in the step it joins: its partner starts on the new
///    panel alone, and it follows once its rows are in, rather than holding the panel back.
///  - The first chunk of a pair is taken half a pass of B ahead of its join, in the middle of the
///    steps in which its buffer of A is free, so that its copy fills a gap between panel copies.
///  - With one panel, each chunk is taken a step before it joins.
///
/// Never later than join_step(), never decreasing, and always after the last step in which the
/// chunk kChunkBuffers places back (whose buffer of A it takes) computes, so that the copy of its
/// rows can wait for kernels that are already queued.
std::size_t take_step(std::size_t local, std::size_t panels);

/// How many rows of a worker's first chunk of `rows` rows come in a first piece, so that the
/// first kernel can start on them while the rest arrives (first_chunk_halves.hpp); 0 when the
/// chunk comes in one piece. Half the chunk, in whole block rows of step 05's kernel (kGranule),
/// when it has at least two.
int first_chunk_top_rows(int rows);

/// How many steps the host stays behind the device before it takes the next chunk from the queue:
/// it waits until every kernel of step `s - kQueueLagSteps` is done, so that until then the chunk
/// stays in the queue for another worker that runs ahead.
constexpr std::size_t kQueueLagSteps = 2;

}  // namespace step09
