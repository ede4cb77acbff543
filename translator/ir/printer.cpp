// A readable text form of a Function, for error messages, tests and `--dump-ir`.
#include <bit>
#include <string>

#include <fmt/format.h>

#include "translator/ir/ir.h"

namespace kiln::ir {
namespace {

std::string immediate_text(const Inst& inst) {
  switch (op_info(inst.op).signature) {
  case Signature::Constant:
    if (inst.type == Type::F32) return fmt::format(" {}", std::bit_cast<float>(static_cast<uint32_t>(inst.immediate)));
    if (inst.type == Type::F64) return fmt::format(" {}", std::bit_cast<double>(inst.immediate));
    return fmt::format(" {:#x}", inst.immediate);
  case Signature::LoadGlobal:
  case Signature::StoreGlobal:
  case Signature::LoadShared:
  case Signature::StoreShared:
  case Signature::LoadConst: return fmt::format(".{}", memory_width_name(static_cast<MemoryWidth>(inst.immediate)));
  case Signature::AtomicGlobal:
  case Signature::AtomicShared: return fmt::format(".{}", atomic_op_name(static_cast<AtomicOp>(inst.immediate)));
  case Signature::LocalLoad:
  case Signature::LocalStore: return fmt::format(" local{}", inst.immediate);
  default: return {};
  }
}

void print_block(const Function& function, const Block& block, int depth, std::string& out) {
  const std::string indent(static_cast<size_t>(depth) * 2, ' ');
  for (const Node& node : block.nodes) {
    switch (node.kind) {
    case NodeKind::Inst: {
      const Inst& inst = function.insts[node.value];
      out += indent;
      if (inst.type != Type::Void) out += fmt::format("%{}: {} = ", node.value, type_name(inst.type));
      out += fmt::format("{}{}", op_name(inst.op), immediate_text(inst));
      for (unsigned i = 0; i < inst.arg_count; ++i) out += fmt::format("{} %{}", i == 0 ? "" : ",", inst.args[i]);
      out += '\n';
      break;
    }
    case NodeKind::If:
      out += fmt::format("{}if %{} {{\n", indent, node.value);
      print_block(function, *node.body, depth + 1, out);
      if (!node.else_body->nodes.empty()) {
        out += indent + "} else {\n";
        print_block(function, *node.else_body, depth + 1, out);
      }
      out += indent + "}\n";
      break;
    case NodeKind::Block:
    case NodeKind::Loop:
      out += fmt::format("{}{} L{} {{\n", indent, node.kind == NodeKind::Block ? "block" : "loop", node.label);
      print_block(function, *node.body, depth + 1, out);
      out += indent + "}\n";
      break;
    case NodeKind::Break: out += fmt::format("{}break L{}\n", indent, node.label); break;
    case NodeKind::Continue: out += fmt::format("{}continue L{}\n", indent, node.label); break;
    case NodeKind::Return: out += indent + "return\n"; break;
    }
  }
}

} // namespace

std::string to_string(const Function& function) {
  std::string out = fmt::format("kernel {} (shared {} bytes, constant bank {} bytes)\n", function.kernel.name,
                                function.kernel.shared_bytes, function.kernel.const_bank_bytes);
  for (size_t i = 0; i < function.locals.size(); ++i) out += fmt::format("local{}: {}\n", i, type_name(function.locals[i]));
  print_block(function, function.body, 0, out);
  return out;
}

} // namespace kiln::ir
