/// \file
/// \brief Page-locking host matrices that the caller allocated as ordinary memory, for as long as
/// an object lives, so that copies from and to them run asynchronously at the link's full speed.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace step09 {

/// Page-locks host ranges with hipHostRegister, mapped for every device, for its lifetime and
/// unregisters them at the end. A range that cannot be locked (memory that is pinned already, for
/// one) is left as it is: the runtime then stages its copies, which still work, only slower. note()
/// says which happened.
class HostRegistration {
  public:
    /// A range of host memory.
    struct Range {
        const void* pointer;
        std::size_t bytes;
    };

    /// Locks `ranges` (a range listed twice, such as A passed as B too, once). With `enabled`
    /// false nothing is locked: the caller pinned the memory already.
    HostRegistration(bool enabled, std::initializer_list<Range> ranges);
    ~HostRegistration();
    HostRegistration(const HostRegistration&) = delete;
    HostRegistration& operator=(const HostRegistration&) = delete;

    /// What was done, in words, for the statistics.
    const std::string& note() const { return note_; }

  private:
    std::vector<void*> locked_;
    std::string note_;
};

}  // namespace step09
