#include "recompiler/isa/aarch64/decoder.h"

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/TargetSelect.h>

#include <fmt/format.h>

#include <charconv>
#include <mutex>
#include <unordered_map>

#include "runtime/base/error.h"

extern "C" {
void LLVMInitializeAArch64TargetInfo();
void LLVMInitializeAArch64TargetMC();
void LLVMInitializeAArch64Disassembler();
}

namespace kiln::a64 {
namespace {

constexpr const char* triple = "aarch64-linux-gnu";
constexpr const char* features = "+v8.5a,+sve,+mte,+lse,+neon,+fp-armv8,+crc,+crypto,+rcpc,+dotprod,+fullfp16";

int parse_index(std::string_view digits) {
  int value = -1;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

/// Maps an LLVM register name ("X3", "W7", "FP", "Q0_Q1_Q2") onto kiln's register form.
Register classify(std::string_view name) {
  Register r;
  if (name == "SP") return {RegKind::sp, 31};
  if (name == "WSP") return {RegKind::wsp, 31};
  if (name == "XZR") return {RegKind::xzr, 31};
  if (name == "WZR") return {RegKind::wzr, 31};
  if (name == "FP") return {RegKind::x, 29};
  if (name == "LR") return {RegKind::x, 30};
  if (name.find('_') != std::string_view::npos) {
    const int first = parse_index(name.substr(1, name.find('_') - 1));
    r.kind = RegKind::vlist;
    r.index = static_cast<uint8_t>(first);
    r.count = static_cast<uint8_t>(1 + std::count(name.begin(), name.end(), '_'));
    r.vlist_q = name[0] == 'Q';
    if (name[0] != 'Q' && name[0] != 'D') r.kind = RegKind::other;
    return r;
  }
  if (name.size() >= 2) {
    const int index = parse_index(name.substr(1));
    if (index >= 0 && index < 32) {
      r.index = static_cast<uint8_t>(index);
      switch (name[0]) {
      case 'X': r.kind = RegKind::x; return r;
      case 'W': r.kind = RegKind::w; return r;
      case 'Q': r.kind = RegKind::q; return r;
      case 'D': r.kind = RegKind::d; return r;
      case 'S': r.kind = RegKind::s; return r;
      case 'H': r.kind = RegKind::h; return r;
      case 'B': r.kind = RegKind::b; return r;
      case 'Z': r.kind = RegKind::z; return r;
      case 'P': r.kind = RegKind::p; return r;
      default: break;
      }
    }
  }
  r.kind = RegKind::other;
  return r;
}

} // namespace

std::string register_name(const Register& r) {
  switch (r.kind) {
  case RegKind::x: return fmt::format("x{}", r.index);
  case RegKind::w: return fmt::format("w{}", r.index);
  case RegKind::sp: return "sp";
  case RegKind::wsp: return "wsp";
  case RegKind::xzr: return "xzr";
  case RegKind::wzr: return "wzr";
  case RegKind::q: return fmt::format("q{}", r.index);
  case RegKind::d: return fmt::format("d{}", r.index);
  case RegKind::s: return fmt::format("s{}", r.index);
  case RegKind::h: return fmt::format("h{}", r.index);
  case RegKind::b: return fmt::format("b{}", r.index);
  case RegKind::z: return fmt::format("z{}", r.index);
  case RegKind::p: return fmt::format("p{}", r.index);
  case RegKind::vlist: return fmt::format("{{v{}..+{}}}", r.index, r.count);
  default: return "?";
  }
}

struct Decoder::Impl {
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instructions;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::MCInstPrinter> printer;
  std::vector<Register> register_map; ///< by LLVM register number
  std::vector<RegisterMask> register_bits; ///< by LLVM register number: the tracked registers it overlaps
  unsigned msr_opcode = 0, mrs_opcode = 0;

  void map_register_bits();
  void add_effects(const llvm::MCInst& inst, Instruction& out) const;
};

/// For every LLVM register, the x/sp/NZCV bits it overlaps (W5 and X5 share bit 5; the pair X0_X1 of CASP has
/// bits 0 and 1).
void Decoder::Impl::map_register_bits() {
  std::vector<std::pair<unsigned, RegisterMask>> tracked;
  for (unsigned i = 1; i < registers->getNumRegs(); ++i) {
    const std::string_view name = registers->getName(i);
    if (name == "SP") tracked.emplace_back(i, sp_bit);
    else if (name == "FP") tracked.emplace_back(i, RegisterMask{1} << 29); // LLVM's names of X29 and X30
    else if (name == "LR") tracked.emplace_back(i, RegisterMask{1} << 30);
    else if (name == "NZCV") tracked.emplace_back(i, flags_bit);
    else if (name.size() >= 2 && name[0] == 'X' && name.find('_') == std::string_view::npos) {
      const int index = parse_index(name.substr(1));
      if (index >= 0 && index <= 30) tracked.emplace_back(i, RegisterMask{1} << index);
    }
  }
  register_bits.assign(registers->getNumRegs(), 0);
  for (const auto& [reg, bit] : tracked)
    for (llvm::MCRegAliasIterator alias(reg, registers.get(), true); alias.isValid(); ++alias) register_bits[*alias] |= bit;
  for (unsigned op = 0; op < instructions->getNumOpcodes(); ++op)
    if (std::string_view(instructions->getName(op)) == "MSR") msr_opcode = op;
    else if (std::string_view(instructions->getName(op)) == "MRS") mrs_opcode = op;
}

void Decoder::Impl::add_effects(const llvm::MCInst& inst, Instruction& out) const {
  const llvm::MCInstrDesc& desc = instructions->get(inst.getOpcode());
  for (unsigned k = 0; k < inst.getNumOperands(); ++k) {
    const llvm::MCOperand& op = inst.getOperand(k);
    if (!op.isReg() || op.getReg() >= register_bits.size()) continue;
    (k < desc.getNumDefs() ? out.writes : out.reads) |= register_bits[op.getReg()];
    // A tied operand (the write-back base of a pre/post-indexed access) is read as the use it is tied to.
    if (k < desc.getNumDefs() && desc.getOperandConstraint(k, llvm::MCOI::TIED_TO) != -1) out.reads |= register_bits[op.getReg()];
  }
  // Two of LLVM's implicit operands serve its code generator, not the architecture: MRS "defines" NZCV and
  // calls "use" SP. The Arm ARM has MRS write only Rt, and BL/BLR read no SP.
  for (unsigned k = 0; k < desc.getNumImplicitDefs(); ++k)
    if (inst.getOpcode() != mrs_opcode) out.writes |= register_bits[desc.getImplicitDefs()[k]];
  for (unsigned k = 0; k < desc.getNumImplicitUses(); ++k)
    if (!desc.isCall()) out.reads |= register_bits[desc.getImplicitUses()[k]];
  // MSR/MRS take their system register as an immediate: NZCV is not in the opcodes' descriptions.
  if (inst.getOpcode() == msr_opcode && inst.getNumOperands() == 2 && inst.getOperand(0).isImm() &&
      inst.getOperand(0).getImm() == system_register::nzcv)
    out.writes |= flags_bit;
  if (inst.getOpcode() == mrs_opcode && inst.getNumOperands() == 2 && inst.getOperand(1).isImm() &&
      inst.getOperand(1).getImm() == system_register::nzcv)
    out.reads |= flags_bit;
}

Decoder::Decoder() : impl_(std::make_unique<Impl>()) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64Disassembler();
  });
  std::string error;
  impl_->target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!impl_->target) throw Error("LLVM has no AArch64 target: " + error);
  impl_->registers.reset(impl_->target->createMCRegInfo(triple));
  llvm::MCTargetOptions options;
  impl_->asm_info.reset(impl_->target->createMCAsmInfo(*impl_->registers, triple, options));
  impl_->subtarget.reset(impl_->target->createMCSubtargetInfo(triple, "", features));
  impl_->instructions.reset(impl_->target->createMCInstrInfo());
  impl_->context = std::make_unique<llvm::MCContext>(llvm::Triple(triple), impl_->asm_info.get(), impl_->registers.get(),
                                                     impl_->subtarget.get());
  impl_->disassembler.reset(impl_->target->createMCDisassembler(*impl_->subtarget, *impl_->context));
  impl_->printer.reset(impl_->target->createMCInstPrinter(llvm::Triple(triple), 0, *impl_->asm_info,
                                                          *impl_->instructions, *impl_->registers));
  if (!impl_->disassembler || !impl_->printer) throw Error("LLVM could not create the AArch64 disassembler");
  impl_->printer->setPrintBranchImmAsAddress(true); // branch and ADRP targets as absolute addresses
  impl_->register_map.resize(impl_->registers->getNumRegs());
  for (unsigned i = 1; i < impl_->registers->getNumRegs(); ++i) impl_->register_map[i] = classify(impl_->registers->getName(i));
  impl_->map_register_bits();
}

Decoder::~Decoder() = default;

Instruction Decoder::decode(uint32_t word, uint64_t address, bool with_text) const {
  Instruction out;
  out.address = address;
  out.encoding = word;
  const uint8_t bytes[4] = {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16), uint8_t(word >> 24)};
  llvm::MCInst inst;
  uint64_t size = 0;
  const auto status = impl_->disassembler->getInstruction(inst, size, llvm::ArrayRef<uint8_t>(bytes, 4), address, llvm::nulls());
  if (status != llvm::MCDisassembler::Success) {
    if (with_text) out.text = fmt::format(".word {:#010x}", word);
    return out;
  }
  out.decoded = true;
  const llvm::StringRef name = impl_->instructions->getName(inst.getOpcode());
  out.opcode = std::string_view(name.data(), name.size());
  out.operands.reserve(inst.getNumOperands());
  for (const llvm::MCOperand& op : inst) {
    Operand o;
    if (op.isReg()) {
      o.kind = Operand::Kind::reg;
      o.reg = op.getReg() < impl_->register_map.size() ? impl_->register_map[op.getReg()] : Register{RegKind::other};
    } else if (op.isImm()) {
      o.imm = op.getImm();
    } else if (op.isSFPImm() || op.isDFPImm()) {
      o.imm = static_cast<int64_t>(op.isDFPImm() ? op.getDFPImm() : op.getSFPImm());
    }
    out.operands.push_back(o);
  }
  impl_->add_effects(inst, out);
  if (with_text) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    impl_->printer->printInst(&inst, address, "", *impl_->subtarget, stream);
    stream.flush();
    const size_t first = text.find_first_not_of(" \t");
    out.text = first == std::string::npos ? text : text.substr(first);
    for (char& c : out.text)
      if (c == '\t') c = ' ';
  }
  return out;
}

} // namespace kiln::a64
