#include "translator/ir/builder.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::ir {

Type Builder::infer_type(Op op, std::initializer_list<ValueId> args) const {
  auto arg_type = [&](size_t index) {
    if (index >= args.size()) throw Error(fmt::format("ir: {} needs operand {}", op_name(op), index));
    return function_.insts.at(args.begin()[index]).type;
  };
  switch (op_info(op).signature) {
  case Signature::IntBinary:
  case Signature::IntShift:
  case Signature::IntUnary:
  case Signature::FloatBinary:
  case Signature::FloatTernary:
  case Signature::FloatUnary:
  case Signature::BoolBinary:
  case Signature::BoolUnary: return arg_type(0);
  case Signature::IntCount:
  case Signature::Special:
  case Signature::AtomicShared:
  case Signature::AtomicCasShared:
  case Signature::Shuffle:
  case Signature::Ballot: return Type::U32;
  case Signature::IntCompare:
  case Signature::FloatCompare:
  case Signature::FloatTest: return Type::Bool;
  case Signature::Select: return arg_type(1);
  case Signature::Pack64: return Type::U64;
  case Signature::AtomicGlobal:
  case Signature::AtomicCasGlobal: return arg_type(1);
  default: return Type::Void;
  }
}

ValueId Builder::emit(Op op, Type type, std::initializer_list<ValueId> args, uint64_t immediate) {
  if (args.size() > 3) throw Error(fmt::format("ir: {} with {} operands", op_name(op), args.size()));
  Inst inst;
  inst.op = op;
  inst.type = type == Type::Void ? infer_type(op, args) : type;
  inst.arg_count = static_cast<uint8_t>(args.size());
  std::copy(args.begin(), args.end(), inst.args.begin());
  inst.immediate = immediate;
  inst.guest_address = guest_address_;
  const auto id = static_cast<ValueId>(function_.insts.size());
  function_.insts.push_back(inst);
  block_->nodes.push_back(Node{.kind = NodeKind::Inst, .value = id});
  return id;
}

uint32_t Builder::add_local(Type type) {
  function_.locals.push_back(type);
  return static_cast<uint32_t>(function_.locals.size() - 1);
}

void Builder::if_then(ValueId condition, const BodyBuilder& then_body, const BodyBuilder& else_body) {
  Node node{.kind = NodeKind::If, .value = condition};
  node.body = std::make_unique<Block>();
  node.else_body = std::make_unique<Block>();
  Block* then_block = node.body.get();
  Block* else_block = node.else_body.get();
  Block* outer = block_;
  outer->nodes.push_back(std::move(node));
  block_ = then_block;
  then_body();
  block_ = else_block;
  if (else_body) else_body();
  block_ = outer;
}

void Builder::construct(NodeKind kind, const std::function<void(uint32_t)>& body) {
  Node node{.kind = kind, .label = function_.next_label++};
  node.body = std::make_unique<Block>();
  Block* inner = node.body.get();
  const uint32_t label = node.label;
  Block* outer = block_;
  outer->nodes.push_back(std::move(node));
  block_ = inner;
  body(label);
  block_ = outer;
}

void Builder::block_construct(const std::function<void(uint32_t)>& body) { construct(NodeKind::Block, body); }

void Builder::loop(const std::function<void(uint32_t)>& body) { construct(NodeKind::Loop, body); }

} // namespace kiln::ir
