// fsp-srv through sm and the kernel, with requests written from switchbrew's layouts: IPC_Marshalling for the
// messages and descriptors, "Filesystem services" for the commands, their inputs (FsSaveDataAttribute, the
// 0x310-byte directory entry) and results (module 2: PathNotFound 1, PathAlreadyExists 2, TargetLocked 7,
// DirectoryNotEmpty 8, TargetNotFound 1002, OutOfRange 3005, InvalidPathFormat 6005, DirectoryUnobtainable 6006),
// and "RomFS" for the image layout, which the walker below reads on its own.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "recompiler/loaders/switch/npdm.h"
#include "runtime/base/error.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/title_config.h"
#include "tests/switch/ipc/ipc_harness.h"
#include "tests/switch/npdm_writer.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;
namespace stdfs = std::filesystem;

constexpr uint64_t path_at = test::data_base + 0x1000, second_path_at = test::data_base + 0x1400;
constexpr uint64_t data_at = test::data_base + 0x2000;
constexpr uint32_t data_room = 0xe000;

// fs results: module 2 | description << 9.
constexpr uint32_t path_not_found = 0x202, path_already_exists = 0x402, target_locked = 0xe02, directory_not_empty = 0x1002;
constexpr uint32_t target_not_found = 0x7d402, out_of_range = 0x177a02, invalid_path_format = 0x2eea02, directory_unobtainable = 0x2eec02;

using Buffer = test::IpcFixture::Buffer;

std::string read_host(const stdfs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void write_host(const stdfs::path& p, const std::string& bytes) {
  stdfs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

struct Fixture : test::IpcFixture {
  stdfs::path root;
  uint32_t fsp = 0;

  explicit Fixture(const std::string& romfs = "", std::optional<uint64_t> permissions = std::nullopt) {
    root = stdfs::temp_directory_path() / ("kiln_fs_test_" + std::to_string(::getpid()));
    stdfs::remove_all(root);
    stdfs::create_directories(root);
    hos::fs::FileSystemConfig config;
    config.save_root = (root / "save").string();
    config.sd_card = (root / "sdmc").string();
    config.romfs = romfs;
    config.permissions = permissions;
    hos::register_file_system(*registry, config);
    fsp = open_service(0x7672732d707366); // "fsp-srv"
    REQUIRE(fsp != 0);
  }
  ~Fixture() { stdfs::remove_all(root); }

  /// The new object's session: the reply's first move handle (word 3, after the handle descriptor).
  uint32_t object() { return word(3); }
  Buffer path(const std::string& p, uint64_t at = path_at) {
    std::memset(rt::host_pointer(at), 0, 0x301);
    std::memcpy(rt::host_pointer(at), p.data(), p.size());
    return {at, 0x301};
  }
  uint32_t with_path(uint32_t session, uint32_t command, const std::string& p, const std::vector<uint32_t>& input = {}) {
    return request(session, command, input, {path(p)});
  }
  uint32_t open_file(uint32_t fs, const std::string& p, uint32_t mode, uint32_t* file) {
    const uint32_t r = with_path(fs, 8, p, {mode});
    *file = r == 0 ? object() : 0;
    return r;
  }
  uint32_t write(uint32_t file, uint64_t offset, const std::string& bytes, uint32_t option = 0) {
    std::memcpy(rt::host_pointer(data_at), bytes.data(), bytes.size());
    return request(file, 1, {option, 0, uint32_t(offset), uint32_t(offset >> 32), uint32_t(bytes.size()), 0}, {}, {{data_at, uint32_t(bytes.size())}});
  }
  std::string read(uint32_t file, uint64_t offset, uint32_t size) {
    REQUIRE(request(file, 0, {0, 0, uint32_t(offset), uint32_t(offset >> 32), size, 0}, {}, {}, {{data_at, size}}) == 0);
    return std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at)), peek<uint64_t>(tls + 0x20));
  }
  void close(uint32_t handle) {
    g.cpu().x[0] = handle;
    REQUIRE(test::Guest::svc(g.cpu(), 0x16) == 0);
  }
  uint32_t sd_card() {
    REQUIRE(request(fsp, 18, {}) == 0);
    return object();
  }
  /// {u8 space id, 7 padding, FsSaveDataAttribute: application id, user id, system save id, type (1 Account)}.
  std::vector<uint32_t> save_attribute(uint64_t user_low, uint64_t user_high) {
    std::vector<uint32_t> w(16, 0);
    w[2] = uint32_t(user_low), w[3] = uint32_t(user_low >> 32), w[4] = uint32_t(user_high), w[5] = uint32_t(user_high >> 32);
    w[8] = 1; // save_data_type Account at 0x20
    return w;
  }
};

TEST_CASE("fsp-srv SD card: files, directories, entries and errors") {
  Fixture f;
  REQUIRE(f.request(f.fsp, 1, {0, 0}) == 0); // SetCurrentProcess
  const uint32_t sd = f.sd_card();
  const stdfs::path host = f.root / "sdmc";
  CHECK(f.with_path(sd, 2, "/dir") == 0);
  CHECK(stdfs::is_directory(host / "dir"));
  CHECK(f.with_path(sd, 2, "/dir") == path_already_exists);
  CHECK(f.with_path(sd, 0, "/dir/a.bin", {0, 0, 3, 0}) == 0); // CreateFile {u32 option, s64 size 3}
  CHECK(stdfs::file_size(host / "dir" / "a.bin") == 3);
  CHECK(f.with_path(sd, 0, "/missing/a.bin", {0, 0, 0, 0}) == path_not_found);

  uint32_t file = 0;
  REQUIRE(f.open_file(sd, "/dir/a.bin", 1 | 2 | 4, &file) == 0); // read, write, append
  CHECK(f.write(file, 0, "hello, sd") == 0);
  CHECK(read_host(host / "dir" / "a.bin") == "hello, sd"); // the SD card is written at once
  CHECK(f.read(file, 7, 100) == "sd");
  REQUIRE(f.request(file, 4, {}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 9);
  CHECK(f.request(file, 3, {4, 0}) == 0); // SetSize 4
  CHECK(read_host(host / "dir" / "a.bin") == "hell");
  f.close(file);
  REQUIRE(f.open_file(sd, "/dir/a.bin", 1, &file) == 0);
  CHECK(f.write(file, 0, "x") == 0x307602); // WriteNotPermitted (6203) on a file opened for reading
  f.close(file);
  REQUIRE(f.open_file(sd, "/dir/a.bin", 2, &file) == 0);
  CHECK(f.write(file, 2, "long tail") == 0x307202); // FileExtensionWithoutOpenModeAllowAppend (6201)
  f.close(file);

  CHECK(f.with_path(sd, 7, "/dir") == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0); // directory
  CHECK(f.with_path(sd, 7, "/dir/a.bin") == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1); // file
  CHECK(f.with_path(sd, 7, "/nothing") == path_not_found);

  write_host(host / "dir" / "b.txt", "12345");
  stdfs::create_directories(host / "dir" / "sub");
  REQUIRE(f.with_path(sd, 9, "/dir", {3}) == 0); // OpenDirectory, directories and files
  const uint32_t directory = f.object();
  REQUIRE(f.request(directory, 1, {}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 3);
  // Read into room for 2 entries, then the rest: entries of 0x310 bytes, name at 0, type at 0x304, size at 0x308.
  REQUIRE(f.request(directory, 0, {}, {}, {}, {{data_at, 2 * 0x310}}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 2);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at))) == "a.bin");
  CHECK(peek<uint8_t>(data_at + 0x304) == 1);
  CHECK(peek<int64_t>(data_at + 0x308) == 4);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at + 0x310))) == "b.txt");
  CHECK(peek<int64_t>(data_at + 0x310 + 0x308) == 5);
  REQUIRE(f.request(directory, 0, {}, {}, {}, {{data_at, 2 * 0x310}}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 1);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at))) == "sub");
  CHECK(peek<uint8_t>(data_at + 0x304) == 0);
  REQUIRE(f.with_path(sd, 9, "/dir", {2}) == 0); // files only
  REQUIRE(f.request(f.object(), 1, {}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 2);

  // GetFileTimeStampRaw: created, modified, accessed (POSIX seconds), is_valid.
  struct stat st {};
  REQUIRE(::stat((host / "dir" / "b.txt").c_str(), &st) == 0);
  REQUIRE(f.with_path(sd, 14, "/dir/b.txt") == 0);
  CHECK(peek<uint64_t>(f.tls + 0x28) == uint64_t(st.st_mtim.tv_sec));
  CHECK(peek<uint8_t>(f.tls + 0x38) == 1);

  CHECK(f.request(sd, 5, {}, {f.path("/dir/b.txt"), f.path("/dir/c.txt", second_path_at)}) == 0); // RenameFile
  CHECK(read_host(host / "dir" / "c.txt") == "12345");
  CHECK(f.request(sd, 6, {}, {f.path("/dir/sub"), f.path("/moved", second_path_at)}) == 0); // RenameDirectory
  CHECK(stdfs::is_directory(host / "moved"));
  CHECK(f.with_path(sd, 3, "/dir") == directory_not_empty);
  CHECK(f.with_path(sd, 1, "/dir/c.txt") == 0);
  CHECK(!stdfs::exists(host / "dir" / "c.txt"));
  CHECK(f.with_path(sd, 1, "/dir/c.txt") == path_not_found);
  CHECK(f.with_path(sd, 13, "/dir") == 0); // CleanDirectoryRecursively
  CHECK(stdfs::is_directory(host / "dir"));
  CHECK(stdfs::is_empty(host / "dir"));
  CHECK(f.with_path(sd, 4, "/dir") == 0); // DeleteDirectoryRecursively
  CHECK(!stdfs::exists(host / "dir"));
  CHECK(f.with_path(sd, 11, "/") == 0);
  const uint64_t free_bytes = peek<uint64_t>(f.tls + 0x20);
  CHECK(f.with_path(sd, 12, "/") == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) >= free_bytes);
  CHECK(peek<uint64_t>(f.tls + 0x20) > 0);
  CHECK(f.request(sd, 10, {}) == 0); // Commit: nothing to do for the SD card
}

TEST_CASE("fsp-srv refuses paths that leave their root") {
  Fixture f;
  const uint32_t sd = f.sd_card();
  const stdfs::path host = f.root / "sdmc";
  write_host(f.root / "outside.txt", "secret");
  CHECK(f.with_path(sd, 7, "/../outside.txt") == directory_unobtainable);
  CHECK(f.with_path(sd, 7, "/a/../../outside.txt") == directory_unobtainable);
  CHECK(f.with_path(sd, 7, "outside.txt") == invalid_path_format);
  CHECK(f.with_path(sd, 7, "/a:b") == 0x2ee802);           // InvalidCharacter (6004)
  CHECK(f.with_path(sd, 7, "/" + std::string(0x300, 'a')) == 0x2ee602); // TooLongPath (6003)
  CHECK(f.with_path(sd, 2, "/a/./b/..") == 0); // normalised to /a
  CHECK(stdfs::is_directory(host / "a"));
  CHECK(f.with_path(sd, 2, "/a") == path_already_exists);
  CHECK(f.with_path(sd, 7, "/a/../a") == 0);
  // A symbolic link out of the root, and one inside it.
  stdfs::create_directory_symlink(f.root, host / "out");
  stdfs::create_directory_symlink(host / "a", host / "in");
  uint32_t file = 0;
  CHECK(f.open_file(sd, "/out/outside.txt", 1, &file) == directory_unobtainable);
  CHECK(f.with_path(sd, 0, "/out/new.txt", {0, 0, 1, 0}) == directory_unobtainable);
  CHECK(!stdfs::exists(f.root / "new.txt"));
  CHECK(f.with_path(sd, 7, "/in") == 0);
  REQUIRE(f.with_path(sd, 9, "/", {3}) == 0);
  REQUIRE(f.request(f.object(), 1, {}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 2); // a and in; the link out is not listed
}

TEST_CASE("fsp-srv save data: created per title and user, written only at Commit") {
  Fixture f;
  std::vector<uint32_t> attribute = f.save_attribute(0x1122334455667788, 0x99aabbccddeeff00);
  std::vector<uint32_t> open_input = {0, 0}; // u8 space id (0 System... any), padding, then the attribute
  open_input.insert(open_input.end(), attribute.begin(), attribute.end());
  CHECK(f.request(f.fsp, 51, open_input) == target_not_found);
  std::vector<uint32_t> create_input = attribute;
  create_input.resize(attribute.size() + 0x50 / 4, 0); // SaveDataCreationInfo and SaveDataMetaInfo
  CHECK(f.request(f.fsp, 22, create_input) == 0);
  // SAVE_ROOT/<program id>/<user id, high then low>: the default program id is 0x0100000000010000.
  const stdfs::path save = f.root / "save" / "0100000000010000" / "99aabbccddeeff001122334455667788";
  CHECK(stdfs::is_directory(save));
  CHECK(f.request(f.fsp, 22, create_input) == path_already_exists);
  REQUIRE(f.request(f.fsp, 51, open_input) == 0);
  const uint32_t fs = f.object();

  CHECK(f.with_path(fs, 0, "/score.bin", {0, 0, 0, 0}) == 0);
  CHECK(stdfs::file_size(save / "score.bin") == 0);
  uint32_t file = 0;
  REQUIRE(f.open_file(fs, "/score.bin", 1 | 2 | 4, &file) == 0);
  CHECK(f.write(file, 0, "score=1234", 1) == 0); // even with Flush
  CHECK(f.read(file, 0, 64) == "score=1234"); // the process sees its own writes
  CHECK(read_host(save / "score.bin").empty()); // the host file is untouched before Commit
  CHECK(f.request(fs, 10, {}) == target_locked); // a file still open for writing
  f.close(file);
  REQUIRE(f.request(fs, 10, {}) == 0);
  CHECK(read_host(save / "score.bin") == "score=1234");

  // Written but never committed (the program ends, or crashes): the file keeps its committed bytes.
  REQUIRE(f.open_file(fs, "/score.bin", 2, &file) == 0);
  CHECK(f.write(file, 0, "score=9999") == 0);
  f.close(file);
  f.close(fs);
  CHECK(read_host(save / "score.bin") == "score=1234");
  REQUIRE(f.request(f.fsp, 51, open_input) == 0);
  const uint32_t again = f.object();
  REQUIRE(f.open_file(again, "/score.bin", 1, &file) == 0);
  CHECK(f.read(file, 0, 64) == "score=1234");
  REQUIRE(f.with_path(again, 9, "/", {3}) == 0);
  REQUIRE(f.request(f.object(), 1, {}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 1); // nothing staged shows in the save
}

/// Finds `name` under the directory at `parent` of a RomFS image through its file hash table, as the RomFS page
/// describes: hash = parent ^ 123456789, then per byte rotate right 5 and xor; bucket = hash % bucket count.
struct RomFsWalker {
  std::string image;
  template <typename T>
  T at(uint64_t offset) const {
    T v{};
    std::memcpy(&v, image.data() + offset, sizeof v);
    return v;
  }
  uint64_t header(int i) const { return at<uint64_t>(8 * i); }
  static uint32_t hash(uint32_t parent, const std::string& name) {
    uint32_t h = parent ^ 123456789u;
    for (unsigned char c : name) h = ((h >> 5) | (h << 27)) ^ c;
    return h;
  }
  /// Looks an entry up in the directory (table 1) or file (table 2) hash table; the entry's metadata offset.
  uint32_t find(bool file, uint32_t parent, const std::string& name) const {
    const uint64_t hash_at = header(file ? 5 : 1), buckets = header(file ? 6 : 2) / 4, meta = header(file ? 7 : 3);
    const uint64_t next_field = file ? 0x18 : 0x10, name_field = file ? 0x20 : 0x18;
    for (uint32_t e = at<uint32_t>(hash_at + 4 * (hash(parent, name) % buckets)); e != 0xffffffff; e = at<uint32_t>(meta + e + next_field)) {
      const uint32_t length = at<uint32_t>(meta + e + next_field + 4);
      if (at<uint32_t>(meta + e) == parent && image.substr(meta + e + name_field, length) == name) return e;
    }
    return 0xffffffff;
  }
  std::string file_data(uint32_t entry) const {
    const uint64_t meta = header(7);
    return image.substr(header(9) + at<uint64_t>(meta + entry + 8), at<uint64_t>(meta + entry + 0x10));
  }
};

TEST_CASE("fsp-srv RomFS from a host folder: the image a RomFS reader walks") {
  const stdfs::path folder = stdfs::temp_directory_path() / ("kiln_romfs_" + std::to_string(::getpid()));
  stdfs::remove_all(folder);
  write_host(folder / "hello.txt", "hello romfs");
  write_host(folder / "data" / "level1.bin", std::string(1000, 'x') + "end");
  write_host(folder / "data" / "a.bin", "A");
  Fixture f(folder.string());
  REQUIRE(f.request(f.fsp, 200, {}) == 0);
  const uint32_t storage = f.object();
  REQUIRE(f.request(storage, 4, {}) == 0);
  const int64_t size = peek<int64_t>(f.tls + 0x20);
  REQUIRE(size > 0x200);
  REQUIRE(size < data_room);
  REQUIRE(f.request(storage, 0, {0, 0, uint32_t(size), 0}, {}, {}, {{data_at, uint32_t(size)}}) == 0);
  RomFsWalker romfs{std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at)), size_t(size))};
  CHECK(romfs.header(0) == 0x50);
  const uint32_t data = romfs.find(false, 0, "data");
  REQUIRE(data != 0xffffffff);
  const uint32_t level = romfs.find(true, data, "level1.bin");
  REQUIRE(level != 0xffffffff);
  CHECK(romfs.file_data(level) == std::string(1000, 'x') + "end");
  CHECK(romfs.file_data(romfs.find(true, data, "a.bin")) == "A");
  CHECK(romfs.file_data(romfs.find(true, 0, "hello.txt")) == "hello romfs");
  CHECK(romfs.find(true, 0, "level1.bin") == 0xffffffff);
  // The root's first child file is hello.txt; data's first file is a.bin, whose sibling is level1.bin.
  const uint64_t directory_meta = romfs.header(3), file_meta = romfs.header(7);
  CHECK(romfs.at<uint32_t>(directory_meta + 0xc) == romfs.find(true, 0, "hello.txt"));
  CHECK(romfs.at<uint32_t>(directory_meta + 8) == data);
  const uint32_t first = romfs.at<uint32_t>(directory_meta + data + 0xc);
  CHECK(first == romfs.find(true, data, "a.bin"));
  CHECK(romfs.at<uint32_t>(file_meta + first + 4) == level);
  // A read past the end of the storage.
  CHECK(f.request(storage, 0, {uint32_t(size - 4), 0, 8, 0}, {}, {}, {{data_at, 8}}) == out_of_range);
  CHECK(f.request(storage, 1, {0, 0, 1, 0}, {}, {{data_at, 1}}) == 0x313802); // UnsupportedOperation (6300): read-only
  stdfs::remove_all(folder);
}

TEST_CASE("fsp-srv RomFS from an image file is served as stored, and without one replies TargetNotFound") {
  const stdfs::path image = stdfs::temp_directory_path() / ("kiln_romfs_image_" + std::to_string(::getpid()));
  std::string bytes;
  for (int i = 0; i < 5000; ++i) bytes += char(i * 7);
  write_host(image, bytes);
  {
    Fixture f(image.string());
    REQUIRE(f.request(f.fsp, 200, {}) == 0);
    const uint32_t storage = f.object();
    REQUIRE(f.request(storage, 4, {}) == 0);
    CHECK(peek<int64_t>(f.tls + 0x20) == 5000);
    REQUIRE(f.request(storage, 0, {1000, 0, 300, 0}, {}, {}, {{data_at, 300}}) == 0);
    CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(data_at)), 300) == bytes.substr(1000, 300));
  }
  stdfs::remove(image);
  Fixture without;
  CHECK(without.request(without.fsp, 200, {}) == target_not_found);
}

// switchbrew "NPDM": the FS access flags of ACI0 (at its FS access header + 4) within ACID's (its FS access
// control + 4) are what fs grants; bits SdCard 21, CreateSaveData 13, FullPermission 63. PermissionDenied is
// module 2, description 6400.
TEST_CASE("fsp-srv enforces main.npdm's FS access control") {
  constexpr uint32_t permission_denied = 2 | 6400 << 9;
  const test::ChildResult child = test::run_in_child([] {
    nx::testing::NpdmFields fields;
    fields.fs_access_flags = uint64_t{1} << 13 | uint64_t{1} << 21; // CreateSaveData and SdCard asked for,
    fields.acid_fs_access_flags = uint64_t{1} << 13;                 // ACID allows only CreateSaveData
    const nx::Npdm npdm = nx::read_npdm(nx::testing::write_npdm(fields), "main.npdm");
    std::fprintf(stderr, "permissions %#llx\n", static_cast<unsigned long long>(npdm.fs_permissions()));
    Fixture f("", npdm.fs_permissions());
    std::fprintf(stderr, "sd card %#x\n", f.request(f.fsp, 18, {}));
    std::vector<uint32_t> create_input = f.save_attribute(1, 0);
    create_input.resize(create_input.size() + 0x50 / 4, 0);
    std::fprintf(stderr, "create own save %#x\n", f.request(f.fsp, 22, create_input));
    std::vector<uint32_t> open_input = {0, 0};
    const std::vector<uint32_t> own = f.save_attribute(1, 0);
    open_input.insert(open_input.end(), own.begin(), own.end());
    std::fprintf(stderr, "open own save %#x\n", f.request(f.fsp, 51, open_input));
    open_input[2] = 0x12345678, open_input[3] = 0x01000000; // application id 0100000012345678: another title's
    std::fprintf(stderr, "open other save %#x\n", f.request(f.fsp, 51, open_input));
    std::fflush(stderr);
    _exit(0);
  });
  CHECK_THAT(child.output, Catch::Contains("permissions 0x2000\n"));
  CHECK_THAT(child.output, Catch::Contains(fmt::format("sd card {:#x}\n", permission_denied)));
  CHECK_THAT(child.output, Catch::Contains("fsp-srv: OpenSdCardFileSystem at guest address 0x"));
  CHECK_THAT(child.output, Catch::Contains("refused: main.npdm's FS access control (0x2000) lacks SdCard (bit 21); replying PermissionDenied (0x320002)"));
  CHECK_THAT(child.output, Catch::Contains("create own save 0\n"));
  CHECK_THAT(child.output, Catch::Contains("open own save 0\n"));
  CHECK_THAT(child.output, Catch::Contains(fmt::format("open other save {:#x}\n", permission_denied)));
  CHECK_THAT(child.output, Catch::Contains("OpenSaveDataFileSystem of title 0100000012345678's save at guest address"));
  CHECK_THAT(child.output, Catch::Contains("lacks FullPermission (bit 63)"));

  // FullPermission alone opens everything; no npdm (a homebrew NRO) too; no bits at all refuses the SD card and
  // creating the save, but the title's own save data and RomFS need none.
  for (const std::optional<uint64_t> permissions : {std::optional<uint64_t>(uint64_t{1} << 63), std::optional<uint64_t>()}) {
    Fixture f("", permissions);
    CHECK(f.request(f.fsp, 18, {}) == 0);
  }
  Fixture none("", 0);
  CHECK(none.request(none.fsp, 18, {}) == permission_denied);
  std::vector<uint32_t> create_input = none.save_attribute(1, 0);
  create_input.resize(create_input.size() + 0x50 / 4, 0);
  CHECK(none.request(none.fsp, 22, create_input) == permission_denied);
  std::vector<uint32_t> open_input = {0, 0};
  const std::vector<uint32_t> own = none.save_attribute(1, 0);
  open_input.insert(open_input.end(), own.begin(), own.end());
  CHECK(none.request(none.fsp, 51, open_input) == target_not_found); // allowed, just never created
  const stdfs::path romfs = stdfs::temp_directory_path() / ("kiln_fs_access_romfs_" + std::to_string(::getpid()));
  write_host(romfs / "a.txt", "a");
  {
    Fixture with_romfs(romfs.string(), 0);
    CHECK(with_romfs.request(with_romfs.fsp, 200, {}) == 0);
  }
  stdfs::remove_all(romfs);
}

TEST_CASE("kiln.toml tables switch.fs and switch.audio name host paths relative to the file") {
  const stdfs::path dir = stdfs::temp_directory_path() / ("kiln_fs_config_" + std::to_string(::getpid()));
  stdfs::create_directories(dir);
  write_host(dir / "kiln.toml", "[switch.fs]\nromfs = \"romfs\"\nsave = \"/var/saves\"\nsdcard = \"cards/sd\"\n");
  hos::SystemSettings settings;
  hos::load_title_config((dir / "kiln.toml").string(), settings);
  const hos::fs::FileSystemConfig& config = settings.file_systems;
  CHECK(config.romfs == (dir / "romfs").string());
  CHECK(config.save_root == "/var/saves");
  CHECK(config.sd_card == (dir / "cards" / "sd").string());
  CHECK(settings.audio.wav_path == "kiln-audout.wav");
  write_host(dir / "audio.toml", "[switch.audio]\nwav = \"out/tone.wav\"\n");
  hos::load_title_config((dir / "audio.toml").string(), settings);
  CHECK(settings.audio.wav_path == (dir / "out" / "tone.wav").string());
  write_host(dir / "bad.toml", "[switch.fs]\nromfs = \"r\"\nsaves = \"s\"\n");
  CHECK_THROWS_WITH(hos::load_title_config((dir / "bad.toml").string(), settings),
                    Catch::Contains("bad.toml:3: [switch.fs] 'saves' is not a key"));
  stdfs::remove_all(dir);
}

TEST_CASE("kiln.toml's gpu table reaches the runtime's settings for nvdrv's renderer") {
  const stdfs::path dir = stdfs::temp_directory_path() / ("kiln_gpu_config_" + std::to_string(::getpid()));
  stdfs::create_directories(dir);
  write_host(dir / "kiln.toml", "[switch.audio]\nwav = \"a.wav\"\n[gpu]\nsubgroup_size_32 = false\n");
  hos::SystemSettings settings;
  hos::load_title_config((dir / "kiln.toml").string(), settings);
  REQUIRE(settings.gpu.subgroup_size_32);
  CHECK_FALSE(settings.gpu.subgroup_size_32->value);
  CHECK(settings.gpu.subgroup_size_32->origin.line == 4);
  CHECK_FALSE(settings.gpu.fma);
  write_host(dir / "bad.toml", "[gpu]\nfma = \"fast\"\n");
  CHECK_THROWS_WITH(hos::load_title_config((dir / "bad.toml").string(), settings),
                    Catch::Contains("bad.toml:2: [gpu] fma = \"fast\" must be \"exact\", \"fused\" or \"f64\""));
  stdfs::remove_all(dir);
}

} // namespace
