/// \file
/// \brief cuBLASXt at its best for `multi_gpu_benchmark`: the runs at every block dim of a sweep,
/// the fastest of them, and step 09 again within the device memory that the fastest one used.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/multi_gpu_runs.hpp"

namespace bench::multi_gpu {

/// cuBLASXt's default block dim (1024), the powers of two up to 32768 that overlap copies and work
/// best for large n, and the ones that cover n in two blocks and in one. None larger than n; none
/// below n / 16 (at n = 90000 a block dim of 1024 would take minutes a run); none whose tiles,
/// about ten of block dim squared floats on a device as measured at 4096 to 16384, exceed
/// `device_bytes`. The largest that fits stays when every one is filtered out.
std::vector<int> default_block_dims(int n, std::uint64_t device_bytes);

/// cuBLASXt on `devices` (distinct) with one block dim, from a handle of its own: the watch starts
/// before the handle is made, so whatever the library keeps on the devices counts, and nothing an
/// earlier block dim left behind is taken for free.
Measurement measure_cublasxt(const std::vector<int>& devices, int block_dim,
                             const Settings& settings, Inputs& inputs);

/// cuBLASXt at every block dim of `block_dims`, on the first device and, where `all` (distinct)
/// has more than one, on all of them; each run goes to `record`.
void sweep_cublasxt(const std::vector<int>& first, const std::vector<int>& all,
                    const std::vector<int>& block_dims, const Settings& settings, Inputs& inputs,
                    const Record& record);

/// The step again with each of `inners`, on the first device and on `devices` (where there are
/// more), within the memory that the fastest cuBLASXt run of `rows` used there per device entry;
/// each run goes to `record`, which may add to `rows`. Where that budget gives the plan the
/// streamed rows already ran (its buffers fit in what cuBLASXt used), it is said and not run again.
void stream_at_cublasxt_memory(const std::vector<Measurement>& rows, const std::vector<int>& first,
                               const std::vector<int>& devices,
                               const std::vector<step09::InnerKernel>& inners,
                               const Settings& settings, Inputs& inputs, const Record& record);

}  // namespace bench::multi_gpu
