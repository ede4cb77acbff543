#pragma once
// Rounds for warp operations and barriers, so that every invocation of a workgroup executes every barrier the
// translated kernel contains, at the same instruction, the same number of times (Vulkan requires workgroup
// barriers in uniform control flow), even when the guest's lanes exit early or reach warp operations in
// divergent code.
//
// The guest CFG is cut at each synchronisation point (Shuffle, Ballot, Barrier): the code between points runs
// as "pieces" inside one loop, a round per iteration:
//   dispatch   each invocation whose state names a piece runs it, up to its next synchronisation point (it parks
//              there: operands into locals) or its exit (counted in workgroup memory; it stays in the loop)
//   exchange   in uniform control flow: every point's warp operation, executed by all invocations with the
//              operands of those parked at it (others contribute nothing: their ballot bit is 0), results into
//              locals; barrier arrivals and exits counted between two workgroup barriers
//   advance    invocations parked at a warp operation continue after it; those at a barrier continue once every
//              invocation that has not exited is at one; the loop ends when all have exited
// Lanes at the same point in a round exchange values, so a warp operation inside a branch sees exactly the lanes
// that took the branch (ballots count only them), as on the hardware. Values crossing a cut go through locals.
#include <functional>
#include <string>
#include <vector>

#include "translator/ir/builder.h"
#include "translator/ir/structurize.h"

namespace kiln::ir {

/// True if `blocks` hold a warp operation (Shuffle or Ballot) at the top level of a block body.
bool has_warp_operations(const Function& function, const std::vector<CfgBlock>& blocks);

/// Rewrites `blocks` (block 0 the entry) into the round loop above; adds locals, instructions and 12 bytes of
/// workgroup memory (counters) to `function`. `workgroup_invocations` emits the number of invocations of the
/// workgroup (the guest's block size) with the builder it is given. `where` names the kernel in errors (a warp
/// operation or barrier inside a predicated If is one).
void schedule_warp_rounds(Function& function, std::vector<CfgBlock>& blocks,
                          const std::function<ValueId(Builder&)>& workgroup_invocations, const std::string& where);

} // namespace kiln::ir
