// recompiler/config on its own: every error path of kiln.toml and patch manifests names the file and the line,
// and combine_changes finds every conflict. Each case writes a small TOML file and checks the exact line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "recompiler/config/patch_sets.h"
#include "recompiler/config/title_config.h"
#include "runtime/base/error.h"

namespace {

namespace fs = std::filesystem;
using namespace kiln::config;

const std::string valid_hash = "xxh128:0123456789abcdef0123456789abcdef";
const std::string header = "title = \"t\"\n[[inputs]]\nname = \"a.elf\"\nhash = \"" + valid_hash + "\"\n"; // lines 1-4

fs::path scratch() {
  // One folder per process: CTest runs each case as its own process, in parallel.
  const fs::path dir = fs::temp_directory_path() / ("kiln_test_config_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path path = scratch() / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path;
}

/// The message of the kiln::Error loading `text` throws (fails the test when nothing is thrown).
std::string config_error(const std::string& text) {
  const fs::path path = write("kiln.toml", text);
  try {
    load_title_config(path);
  } catch (const kiln::Error& e) {
    return e.what();
  }
  FAIL("no error for:\n" << text);
  return {};
}

std::string at(int line) { return (scratch() / "kiln.toml").string() + ":" + std::to_string(line) + ": "; }

} // namespace

TEST_CASE("config: a complete kiln.toml parses into every kind of change") {
  write("hooks.cpp", "// hooks\n");
  const fs::path path = write("kiln.toml", "sources = [\"hooks.cpp\"]\n" + header +
                                               "[[functions]]\naddress = 0x500010\nsize = 16\nname = \"secret\"\n"
                                               "[[jump_tables]]\nbranch = 0x400100\ntargets = [0x400110, 0x400120]\n"
                                               "[[ignore]]\naddress = 0x400200\n"
                                               "[[stubs]]\naddress = 0x400300\nreturn = 7\n"
                                               "[[patches]]\naddress = 0x400400\nencoding = 0xd503201f\noriginal = 0x91001400\n"
                                               "[[hooks]]\naddress = 0x400500\nwhen = \"after\"\nfunction = \"ns::hook\"\ntargets = [0x400508]\n"
                                               "[[replacements]]\naddress = 0x400600\nfunction = \"replacement\"\n");
  const TitleConfig config = load_title_config(path);
  CHECK(config.title == "t");
  CHECK(config.platform == "linux-user");
  REQUIRE(config.inputs.size() == 1);
  CHECK(config.inputs[0].hash == valid_hash);
  const Changes& c = config.changes;
  REQUIRE(c.functions.size() == 1);
  CHECK(c.functions[0].address == 0x500010);
  CHECK(c.functions[0].size == 16u);
  CHECK(c.functions[0].name == "secret");
  CHECK(c.functions[0].origin.line == 6);
  REQUIRE(c.jump_tables.size() == 1);
  CHECK(c.jump_tables[0].targets == std::vector<uint64_t>{0x400110, 0x400120});
  REQUIRE(c.ignore.size() == 1);
  REQUIRE(c.stubs.size() == 1);
  CHECK(c.stubs[0].return_value == 7u);
  REQUIRE(c.patches.size() == 1);
  CHECK(c.patches[0].encoding == 0xd503201fu);
  CHECK(c.patches[0].original == 0x91001400u);
  REQUIRE(c.hooks.size() == 1);
  CHECK(c.hooks[0].when == HookWhen::after);
  CHECK(c.hooks[0].function == "ns::hook");
  CHECK(c.hooks[0].targets == std::vector<uint64_t>{0x400508});
  REQUIRE(c.replacements.size() == 1);
  CHECK(c.replacements[0].function == "replacement");
  REQUIRE(c.sources.size() == 1);
  CHECK(c.sources[0] == fs::absolute(scratch() / "hooks.cpp").lexically_normal());
}

TEST_CASE("config: unknown keys are named with their line, in every table") {
  CHECK(config_error("colour = 1\n" + header) == at(1) + "unknown key 'colour' in kiln.toml (expected one of: title, platform, inputs, symbol_maps, gpu, functions, jump_tables, ignore, stubs, patches, hooks, replacements, sources)");
  CHECK(config_error(header + "[[functions]]\naddress = 0x400000\nsise = 4\n").starts_with(at(7) + "unknown key 'sise' in [[functions]] entry"));
  CHECK(config_error(header + "[[jump_tables]]\nbranch = 0x400000\ntarget = [0x400010]\n").starts_with(at(7) + "unknown key 'target' in [[jump_tables]] entry"));
  CHECK(config_error(header + "[[ignore]]\naddr = 0x400000\n").starts_with(at(6) + "unknown key 'addr' in [[ignore]] entry"));
  CHECK(config_error(header + "[[stubs]]\naddress = 0x400000\nreturns = 1\n").starts_with(at(7) + "unknown key 'returns' in [[stubs]] entry"));
  CHECK(config_error(header + "[[patches]]\naddress = 0x400000\nencoding = 1\norig = 2\n").starts_with(at(8) + "unknown key 'orig' in [[patches]] entry"));
  CHECK(config_error(header + "[[hooks]]\naddress = 0x400000\nfunction = \"h\"\nwhere = \"before\"\n").starts_with(at(8) + "unknown key 'where' in [[hooks]] entry"));
  CHECK(config_error(header + "[[replacements]]\naddress = 0x400000\nfunction = \"r\"\noriginal = \"o\"\n").starts_with(at(8) + "unknown key 'original' in [[replacements]] entry"));
  CHECK(config_error("title = \"t\"\n[[inputs]]\nname = \"a\"\nhash = \"" + valid_hash + "\"\nsize = 3\n").starts_with(at(5) + "unknown key 'size' in [[inputs]] entry"));
}

TEST_CASE("config: wrong types, missing keys and bad values are named with their line") {
  CHECK(config_error("title = 3\n") == at(1) + "'title' in kiln.toml must be a string, not an integer");
  CHECK(config_error("platform = \"linux-user\"\n").starts_with(at(1) + "kiln.toml needs 'title'"));
  CHECK(config_error("title = \"t\"\n").starts_with(at(1) + "kiln.toml needs at least one [[inputs]] entry"));
  CHECK(config_error("title = \"t\"\n[[inputs]]\nname = \"a\"\nhash = \"sha1:00\"\n").starts_with(at(4) + "'hash' = \"sha1:00\" is not a content hash"));
  CHECK(config_error("platform = \"switch\"\n" + header) == at(1) + "platform \"switch\" is not supported (supported: linux-user, psx, gamecube)");
  CHECK(config_error(header + "[[functions]]\naddress = \"0x400000\"\n") == at(6) + "'address' in [[functions]] entry must be an integer, not a string");
  CHECK(config_error(header + "[[functions]]\nname = \"f\"\n") == at(5) + "[[functions]] entry needs 'address'");
  CHECK(config_error(header + "[[functions]]\naddress = -4\n") == at(6) + "'address' in [[functions]] entry must not be negative");
  CHECK(config_error(header + "[[functions]]\naddress = 0x400002\n").starts_with(at(6) + "'address' = 0x400002 is not a multiple of 4"));
  CHECK(config_error(header + "[[functions]]\naddress = 0x400000\nsize = 6\n") == at(7) + "'size' = 0x6 must be a positive multiple of 4");
  CHECK(config_error(header + "[[jump_tables]]\nbranch = 0x400000\n") == at(5) + "[[jump_tables]] entry needs 'targets' (the case addresses in index order)");
  CHECK(config_error(header + "[[jump_tables]]\nbranch = 0x400000\ntargets = 5\n") == at(7) + "'targets' in [[jump_tables]] entry must be an array of integers, not an integer");
  CHECK(config_error(header + "[[jump_tables]]\nbranch = 0x400000\ntargets = [0x400010, \"x\"]\n") == at(7) + "'targets' in [[jump_tables]] entry must be an integer, not a string");
  CHECK(config_error(header + "[[patches]]\naddress = 0x400000\nencoding = 0x100000000\n") == at(7) + "'encoding' = 0x100000000 is wider than one 32-bit instruction");
  CHECK(config_error(header + "[[hooks]]\naddress = 0x400000\nfunction = \"h\"\nwhen = \"during\"\n") == at(8) + "'when' = \"during\" must be \"before\" or \"after\"");
  CHECK(config_error(header + "[[hooks]]\naddress = 0x400000\nfunction = \"not a name\"\n") == at(7) + "'function' = \"not a name\" is not a C++ function name");
  CHECK(config_error(header + "[[replacements]]\naddress = 0x400000\nfunction = \"9lives\"\n") == at(7) + "'function' = \"9lives\" is not a C++ function name");
  CHECK(config_error("sources = [\"missing.cpp\"]\n" + header).starts_with(at(1) + "source file 'missing.cpp' does not exist"));
  CHECK(config_error("sources = \"hooks.cpp\"\n" + header) == at(1) + "'sources' in kiln.toml must be an array of strings, not a string");
  CHECK(config_error("functions = 3\n" + header) == at(1) + "'functions' must be an array of tables ([[functions]]), not an integer");
  CHECK(config_error(header + "[[functions]\n").starts_with(at(5) + "TOML syntax"));
}

TEST_CASE("config: the gpu table overrides host profile options, each with its line") {
  const fs::path path = write("kiln.toml", header + "[gpu]\nfma = \"f64\"\nsubgroup_size_32 = false\nzero_registers = true\n"
                                                    "gather_bias = false\nfloat64 = true\n");
  const GpuSettings gpu = load_title_config(path).gpu;
  REQUIRE(gpu.fma);
  CHECK(gpu.fma->value == kiln::spirv::FmaMode::exact_f64);
  CHECK(gpu.fma->origin.describe() == path.string() + ":6");
  REQUIRE(gpu.subgroup_size_32);
  CHECK_FALSE(gpu.subgroup_size_32->value);
  CHECK(gpu.subgroup_size_32->origin.line == 7);
  REQUIRE(gpu.zero_registers);
  CHECK(gpu.zero_registers->value);
  REQUIRE(gpu.gather_bias);
  CHECK_FALSE(gpu.gather_bias->value);
  REQUIRE(gpu.float64);
  CHECK(gpu.float64->origin.line == 10);
  // The runtime's --config reads the same table, and only it (other tables are the recompiler's or the platform's).
  const GpuSettings runtime = load_gpu_settings(write("runtime.toml", "[switch.fs]\nromfs = \"r\"\n[gpu]\nfma = \"fused\"\n"));
  REQUIRE(runtime.fma);
  CHECK(runtime.fma->value == kiln::spirv::FmaMode::fused);
  CHECK(runtime.fma->origin.line == 4);
  CHECK_FALSE(runtime.subgroup_size_32);
  CHECK(load_gpu_settings(write("none.toml", "title = \"t\"\n")).empty());
  CHECK(load_title_config(write("kiln.toml", header)).gpu.empty());
}

TEST_CASE("config: bad gpu table keys and values are named with their line") {
  CHECK(config_error(header + "[gpu]\nfma = \"fast\"\n") == at(6) + "[gpu] fma = \"fast\" must be \"exact\", \"fused\" or \"f64\"");
  CHECK(config_error(header + "[gpu]\nfma = \"exact\"\nsubgroup_size = false\n") ==
        at(7) + "unknown key 'subgroup_size' in [gpu] (expected one of: fma, subgroup_size_32, zero_registers, gather_bias, float64)");
  CHECK(config_error(header + "[gpu]\nsubgroup_size_32 = 32\n") == at(6) + "'subgroup_size_32' in [gpu] must be true or false, not an integer");
  CHECK(config_error(header + "[gpu]\nfma = 1\n") == at(6) + "'fma' in [gpu] must be a string, not an integer");
  CHECK(config_error("gpu = 3\n" + header) == at(1) + "'gpu' must be a table ([gpu]), not an integer");
  const fs::path runtime = write("runtime.toml", "[gpu]\nzero_registers = \"yes\"\n");
  try {
    load_gpu_settings(runtime);
    FAIL("no error");
  } catch (const kiln::Error& e) {
    CHECK(std::string(e.what()) == runtime.string() + ":2: 'zero_registers' in [gpu] must be true or false, not a string");
  }
}

TEST_CASE("config: an executable that matches no input is an error naming both hashes") {
  const TitleConfig config = load_title_config(write("kiln.toml", header));
  const std::vector<uint8_t> bytes{1, 2, 3};
  const std::string actual = content_hash(bytes);
  CHECK(actual.size() == 7 + 32);
  try {
    verify_input(config, "a.elf", bytes);
    FAIL("no error");
  } catch (const kiln::Error& e) {
    CHECK(std::string(e.what()) == at(2) + "input 'a.elf' expects hash " + valid_hash + ", but a.elf has hash " + actual + " (a different build of the title?)");
  }
  const TitleConfig matching = load_title_config(write("kiln.toml", "title = \"t\"\n[[inputs]]\nname = \"a.elf\"\nhash = \"" + actual + "\"\n"));
  CHECK_NOTHROW(verify_input(matching, "a.elf", bytes));
}

TEST_CASE("config: patch sets combine in order and every conflict is reported") {
  const TitleConfig config = load_title_config(write("kiln.toml", header + "[[patches]]\naddress = 0x400000\nencoding = 1\n"));
  auto set = [&](const std::string& id, const std::string& body) {
    write("sets/" + id + "/patch.toml", "id = \"" + id + "\"\nversion = \"1\"\ntitle_hash = \"" + valid_hash + "\"\n" + body);
    return load_patch_set(scratch() / "sets" / id);
  };
  const PatchSet base = set("base", "[[replacements]]\naddress = 0x400100\nfunction = \"r1\"\n");
  const PatchSet addon = set("addon", "depends = [\"base\"]\n[[patches]]\naddress = 0x400010\nencoding = 2\n");
  CombinedChanges ok = combine_changes(config, {base, addon});
  CHECK(ok.conflicts.empty());
  CHECK(ok.applied == std::vector<std::string>{"base 1", "addon 1"});
  CHECK(ok.changes.patches.size() == 2);
  CHECK(ok.changes.replacements.size() == 1);

  // addon before base: its dependency is not applied before it.
  CombinedChanges order = combine_changes(config, {addon, base});
  REQUIRE(order.conflicts.size() == 1);
  CHECK(order.conflicts[0].find("depends on 'base', which is not applied before it") != std::string::npos);

  const PatchSet clash = set("clash", "conflicts = [\"base\"]\n[[patches]]\naddress = 0x400000\nencoding = 3\n[[stubs]]\naddress = 0x400100\n");
  CombinedChanges bad = combine_changes(config, {base, clash, base});
  const auto has = [&](const std::string& text) {
    for (const std::string& c : bad.conflicts)
      if (c.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(has("patch set 'base' is applied twice"));
  CHECK(has("patch set 'clash'"));
  CHECK(has("declares a conflict with 'base', which is also applied"));
  CHECK(has("instruction 0x400000 is patched by " + (scratch() / "kiln.toml").string() + ":5 and by patch set 'clash'"));
  CHECK(has("function 0x400100 is replaced by patch set 'base'"));
  CHECK(has("stubbed by patch set 'clash'"));
  CHECK_THROWS_AS(combine_changes_or_throw(config, {base, clash}), kiln::Error);

  const PatchSet other_build = set("other", "");
  write("sets/other/patch.toml", "id = \"other\"\nversion = \"1\"\ntitle_hash = \"xxh128:ffffffffffffffffffffffffffffffff\"\n");
  CombinedChanges wrong = combine_changes(config, {load_patch_set(scratch() / "sets" / "other")});
  REQUIRE(wrong.conflicts.size() == 1);
  CHECK(wrong.conflicts[0].find("was made for title hash xxh128:ffffffffffffffffffffffffffffffff") != std::string::npos);
}

TEST_CASE("config: patch manifests report unknown keys and missing fields with their line") {
  write("sets/broken/patch.toml", "id = \"broken\"\nversion = \"1\"\ntitle_hash = \"" + valid_hash + "\"\nrequires = [\"x\"]\n");
  try {
    load_patch_set(scratch() / "sets" / "broken");
    FAIL("no error");
  } catch (const kiln::Error& e) {
    CHECK(std::string(e.what()).find("patch.toml:4: unknown key 'requires' in patch.toml") != std::string::npos);
  }
  write("sets/noversion/patch.toml", "id = \"noversion\"\ntitle_hash = \"" + valid_hash + "\"\n");
  CHECK_THROWS_WITH(load_patch_set(scratch() / "sets" / "noversion"), Catch::Contains("patch.toml needs 'version'"));
  CHECK_THROWS_WITH(load_patch_set(scratch() / "sets" / "absent"), Catch::Contains("not a patch set (no patch.toml manifest)"));
}
