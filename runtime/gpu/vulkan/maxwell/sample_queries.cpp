#include "runtime/gpu/vulkan/maxwell/sample_queries.h"

#include <vector>

namespace kiln::vulkan {

SampleQueries::SampleQueries(const Context& context)
    : context_(context), precise_(context.physical_device().getFeatures().occlusionQueryPrecise) {}

std::optional<uint32_t> SampleQueries::begin(Batch& b) {
  if (!counting_) return std::nullopt;
  if (!pool_) pool_ = context_.device().createQueryPoolUnique({{}, vk::QueryType::eOcclusion, capacity});
  if (full()) return std::nullopt;
  const uint32_t query = used_++;
  b.uploads.resetQueryPool(*pool_, query, 1); // the uploads run before this batch's draws
  b.commands.beginQuery(*pool_, query, precise_ ? vk::QueryControlFlagBits::ePrecise : vk::QueryControlFlags{});
  return query;
}

void SampleQueries::collect() {
  if (used_ == 0) return;
  std::vector<uint64_t> results(used_);
  (void)context_.device().getQueryPoolResults(*pool_, 0, used_, results.size() * 8, results.data(), 8,
                                              vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
  for (uint64_t r : results) samples_ += r;
  used_ = 0;
}

void SampleQueries::reset() {
  samples_ = 0;
  counting_ = true;
}

} // namespace kiln::vulkan
