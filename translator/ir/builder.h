#pragma once
// Appends instructions and constructs to a Function. Result types follow from the operands where the op's
// signature fixes them; conversions and loads name theirs.
#include <bit>
#include <functional>
#include <initializer_list>

#include "translator/ir/ir.h"

namespace kiln::ir {

class Builder {
public:
  explicit Builder(Function& function) : function_(function), block_(&function.body) {}

  Function& function() { return function_; }
  Block* block() const { return block_; }
  void set_block(Block* block) { block_ = block; }
  void set_guest_address(uint64_t address) { guest_address_ = address; }

  /// Appends an instruction node; `type` Void means "infer from the signature".
  ValueId emit(Op op, Type type, std::initializer_list<ValueId> args, uint64_t immediate = 0);

  ValueId constant(Type type, uint64_t bits) { return emit(Op::Const, type, {}, bits); }
  ValueId u32(uint32_t value) { return constant(Type::U32, value); }
  ValueId u64(uint64_t value) { return constant(Type::U64, value); }
  ValueId f32(float value) { return constant(Type::F32, std::bit_cast<uint32_t>(value)); }
  ValueId f64(double value) { return constant(Type::F64, std::bit_cast<uint64_t>(value)); }
  ValueId boolean(bool value) { return constant(Type::Bool, value ? 1 : 0); }

  ValueId op(Op op, ValueId a) { return emit(op, Type::Void, {a}); }
  ValueId op(Op op, ValueId a, ValueId b) { return emit(op, Type::Void, {a, b}); }
  ValueId op(Op op, ValueId a, ValueId b, ValueId c) { return emit(op, Type::Void, {a, b, c}); }
  ValueId convert(Op op, Type to, ValueId value) { return emit(op, to, {value}); }
  ValueId select(ValueId condition, ValueId if_true, ValueId if_false) {
    return emit(Op::Select, Type::Void, {condition, if_true, if_false});
  }

  uint32_t add_local(Type type);
  ValueId load_local(uint32_t local) { return emit(Op::LocalLoad, function_.locals.at(local), {}, local); }
  void store_local(uint32_t local, ValueId value) { emit(Op::LocalStore, Type::Void, {value}, local); }

  ValueId load(Op op, MemoryWidth width, ValueId where) {
    return emit(op, access_type(width), {where}, static_cast<uint64_t>(width));
  }
  void store(Op op, MemoryWidth width, ValueId where, ValueId value) {
    emit(op, Type::Void, {where, value}, static_cast<uint64_t>(width));
  }

  using BodyBuilder = std::function<void()>;
  void if_then(ValueId condition, const BodyBuilder& then_body, const BodyBuilder& else_body = {});
  /// A Block or Loop construct; `body` receives its label.
  void block_construct(const std::function<void(uint32_t label)>& body);
  void loop(const std::function<void(uint32_t label)>& body);
  void break_to(uint32_t label) { jump(NodeKind::Break, label); }
  void continue_to(uint32_t label) { jump(NodeKind::Continue, label); }
  void return_() { block_->nodes.push_back(Node{.kind = NodeKind::Return}); }

private:
  void jump(NodeKind kind, uint32_t label) { block_->nodes.push_back(Node{.kind = kind, .label = label}); }
  /// Appends a labelled Block or Loop node and builds its body inside it.
  void construct(NodeKind kind, const std::function<void(uint32_t label)>& body);
  Type infer_type(Op op, std::initializer_list<ValueId> args) const;

  Function& function_;
  Block* block_;
  uint64_t guest_address_ = UINT64_MAX;
};

} // namespace kiln::ir
