// Random guest CFGs (loops, early exits, branches into shared merge points), structurized, compiled to SPIR-V and
// run on lavapipe, against a direct interpretation of the same CFG in C++.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "runtime/base/error.h"
#include "tests/gpu/compute/compute_dispatch.h"
#include "translator/ir/builder.h"
#include "translator/ir/passes.h"
#include "translator/ir/structurize.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;
using ir::MemoryWidth;
using ir::Op;
using ir::Type;
using ir::ValueId;

namespace {

constexpr uint32_t threads = 64;
constexpr uint32_t fuel_limit = 200;

struct RandomCfg {
  struct Block {
    ir::CfgBlock::Exit exit;
    uint32_t target = 0, fallthrough = 0;
  };
  std::vector<Block> blocks;
};

RandomCfg random_cfg(std::mt19937& random) {
  RandomCfg cfg;
  const uint32_t count = 2 + random() % 10;
  for (uint32_t i = 0; i < count; ++i) {
    RandomCfg::Block block;
    const uint32_t kind = random() % 8;
    if (i + 1 == count || kind == 0) block.exit = ir::CfgBlock::Exit::Return;
    else if (kind < 3) block.exit = ir::CfgBlock::Exit::Jump;
    else block.exit = ir::CfgBlock::Exit::Branch;
    // Mostly forward edges, some backward (loops).
    const auto pick = [&] { return random() % 4 == 0 ? random() % (i + 1) : i + 1 + random() % (count - i - 1); };
    if (block.exit != ir::CfgBlock::Exit::Return) {
      block.target = pick();
      block.fallthrough = pick();
    }
    cfg.blocks.push_back(block);
  }
  return cfg;
}

// Each block: acc = acc*31 + index; out of fuel -> stop; a branch tests a bit of (seed ^ acc).
uint32_t interpret(const RandomCfg& cfg, uint32_t seed) {
  uint32_t acc = 7, fuel = fuel_limit, block = 0;
  while (true) {
    acc = acc * 31 + block;
    if (--fuel == 0) return acc;
    const auto& b = cfg.blocks[block];
    if (b.exit == ir::CfgBlock::Exit::Return) return acc;
    if (b.exit == ir::CfgBlock::Exit::Jump) block = b.target;
    else block = ((seed ^ acc) >> 3) & 1 ? b.target : b.fallthrough;
  }
}

ir::Function lower_cfg(const RandomCfg& cfg) {
  ir::Function f;
  f.kernel.name = "random_cfg";
  f.kernel.const_bank_bytes = 16;
  // Block 0 initialises the state and enters the random graph, whose block i is blocks[i + 1].
  std::vector<ir::CfgBlock> blocks(cfg.blocks.size() + 1);
  const uint32_t acc = static_cast<uint32_t>(f.locals.size());
  f.locals = {Type::U32, Type::U32, Type::U32}; // acc, fuel, seed
  const uint32_t fuel = acc + 1, seed = acc + 2;
  ir::Builder b(f);
  const auto address_of_result = [&] {
    const ValueId out = b.load(Op::LoadConst, MemoryWidth::B64, b.u32(8));
    return b.op(Op::IAdd, out, b.convert(Op::ZExt, Type::U64, b.op(Op::Shl, b.emit(Op::ThreadIdX, Type::U32, {}), b.u32(2))));
  };
  {
    ir::Block code;
    b.set_block(&code);
    const ValueId in = b.load(Op::LoadConst, MemoryWidth::B64, b.u32(0));
    const ValueId address = b.op(Op::IAdd, in, b.convert(Op::ZExt, Type::U64, b.op(Op::Shl, b.emit(Op::ThreadIdX, Type::U32, {}), b.u32(2))));
    b.store_local(seed, b.load(Op::LoadGlobal, MemoryWidth::B32, address));
    b.store_local(acc, b.u32(7));
    b.store_local(fuel, b.u32(fuel_limit));
    blocks[0].body = std::move(code.nodes);
    blocks[0].exit = ir::CfgBlock::Exit::Jump;
    blocks[0].target = 1;
  }
  for (size_t i = 0; i < cfg.blocks.size(); ++i) {
    ir::Block code;
    b.set_block(&code);
    const ValueId value = b.op(Op::IAdd, b.op(Op::IMul, b.load_local(acc), b.u32(31)), b.u32(static_cast<uint32_t>(i)));
    b.store_local(acc, value);
    const ValueId remaining = b.op(Op::ISub, b.load_local(fuel), b.u32(1));
    b.store_local(fuel, remaining);
    const bool returns = cfg.blocks[i].exit == ir::CfgBlock::Exit::Return;
    b.if_then(b.op(Op::IEq, remaining, b.u32(0)), [&] {
      b.store(Op::StoreGlobal, MemoryWidth::B32, address_of_result(), value);
      b.return_();
    });
    if (returns) b.store(Op::StoreGlobal, MemoryWidth::B32, address_of_result(), value);
    ValueId condition = ir::no_value;
    if (cfg.blocks[i].exit == ir::CfgBlock::Exit::Branch) {
      condition = b.op(Op::INe, b.op(Op::And, b.op(Op::LShr, b.op(Op::Xor, b.load_local(seed), value), b.u32(3)), b.u32(1)), b.u32(0));
    }
    ir::CfgBlock& block = blocks[i + 1];
    block.guest_address = (i + 1) * 16;
    block.body = std::move(code.nodes);
    block.exit = cfg.blocks[i].exit;
    block.condition = condition;
    block.target = cfg.blocks[i].target + 1;
    block.fallthrough = cfg.blocks[i].fallthrough + 1;
  }
  ir::structurize(f, std::move(blocks), "random cfg");
  return f;
}

} // namespace

TEST_CASE("random reducible CFGs keep their meaning through structurization on lavapipe", "[gpu][ir]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const uint32_t seed = std::random_device()();
  INFO("seed " << seed);
  std::mt19937 random(seed);
  gpu::AddressableBuffer inputs = gpu::create_addressable_buffer(context, threads * 4);
  gpu::AddressableBuffer outputs = gpu::create_addressable_buffer(context, threads * 4);
  const uint64_t bank[2] = {inputs.address, outputs.address};
  int run = 0, irreducible = 0;
  while (run < 40) {
    const RandomCfg cfg = random_cfg(random);
    ir::Function kernel;
    try {
      kernel = lower_cfg(cfg);
    } catch (const Error& e) {
      REQUIRE(std::string(e.what()).find("irreducible") != std::string::npos);
      ++irreducible;
      continue;
    }
    ir::run_passes(kernel);
    const auto module = spirv::emit_compute(kernel);
    const auto messages = spirv::validate(module);
    for (const auto& message : messages) UNSCOPED_INFO(message);
    INFO(ir::to_string(kernel));
    REQUIRE(messages.empty());
    std::vector<uint32_t> seeds(threads);
    for (auto& s : seeds) s = random();
    std::memcpy(inputs.mapped, seeds.data(), threads * 4);
    std::memset(outputs.mapped, 0xa5, threads * 4);
    gpu::run_compute(context, {.spirv = module, .entry_point = "random_cfg", .block = {threads, 1, 1},
                               .constant_bank = std::span(reinterpret_cast<const uint8_t*>(bank), sizeof(bank))});
    size_t mismatches = 0;
    for (uint32_t t = 0; t < threads; ++t) {
      uint32_t actual;
      std::memcpy(&actual, outputs.mapped + t * 4, 4);
      mismatches += actual != interpret(cfg, seeds[t]);
    }
    CHECK(mismatches == 0);
    ++run;
  }
  INFO("irreducible graphs skipped: " << irreducible);
  CHECK(context.validation_log().count() == 0);
}
