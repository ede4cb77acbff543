// C++ exceptions through recompiled frames: one static program (libstdc++ and glibc are recompiled and
// compiled once) with one case per argument; `exceptions CASE` runs it. Each case prints what it observes, so
// the differential test against qemu-aarch64 compares the order of destructors, handlers and messages.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int live_guards = 0;

/// Prints when it is destroyed: unwinding must run destructors of every frame it leaves, innermost first.
struct Guard {
  explicit Guard(const char* name) : name_(name) { ++live_guards; }
  ~Guard() {
    --live_guards;
    std::printf("  ~Guard(%s)\n", name_);
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
  const char* name_;
};

struct AppError : std::runtime_error {
  AppError(const std::string& what, int code) : std::runtime_error(what), code(code) {}
  int code;
};
struct DerivedError : AppError {
  using AppError::AppError;
};

__attribute__((noinline)) void throw_int(int value) {
  if (value > 0) throw value;
}

__attribute__((noinline)) int level3(int n) {
  Guard g("level3");
  if (n == 3) throw AppError("failed at level 3", 3);
  if (n == 4) throw DerivedError("derived at level 3", 4);
  return n * 10;
}
__attribute__((noinline)) int level2(int n) {
  Guard g("level2");
  std::string local = "level2 string " + std::to_string(n);
  return level3(n) + static_cast<int>(local.size());
}
__attribute__((noinline)) int level1(int n) {
  Guard g("level1");
  return level2(n) + 1;
}

int case_basic() {
  try {
    throw_int(7);
  } catch (int v) {
    std::printf("caught int %d\n", v);
  }
  try {
    throw std::runtime_error("runtime error text");
  } catch (const std::exception& e) {
    std::printf("caught std::exception: %s\n", e.what());
  }
  try {
    std::vector<int> v(3);
    std::printf("at(5) = %d\n", v.at(5));
  } catch (const std::out_of_range& e) {
    std::printf("caught out_of_range: %s\n", e.what());
  }
  try {
    std::map<std::string, int> m;
    (void)m.at("missing");
  } catch (const std::out_of_range& e) {
    std::printf("caught map out_of_range: %s\n", e.what());
  }
  try {
    (void)std::stoi("not a number");
  } catch (const std::invalid_argument& e) {
    std::printf("caught invalid_argument: %s\n", e.what());
  }
  return 0;
}

int case_destructors() {
  for (int n = 2; n <= 4; ++n) {
    try {
      Guard outer("outer");
      std::printf("level1(%d) = %d\n", n, level1(n));
    } catch (const DerivedError& e) {
      std::printf("caught DerivedError code %d: %s (live guards %d)\n", e.code, e.what(), live_guards);
    } catch (const AppError& e) {
      std::printf("caught AppError code %d: %s (live guards %d)\n", e.code, e.what(), live_guards);
    }
  }
  return 0;
}

__attribute__((noinline)) void nested_inner(int mode) {
  try {
    Guard g("inner try");
    if (mode == 0) throw std::logic_error("logic");
    if (mode == 1) throw 42;
    throw std::string("a string");
  } catch (const std::logic_error& e) {
    std::printf("  inner caught logic_error %s, throwing AppError\n", e.what());
    throw AppError(std::string("converted ") + e.what(), 10);
  } catch (int v) {
    std::printf("  inner caught int %d, rethrowing\n", v);
    throw;
  }
}

int case_nested() {
  for (int mode = 0; mode < 3; ++mode) {
    try {
      try {
        nested_inner(mode);
      } catch (const AppError& e) {
        std::printf(" middle caught AppError %d: %s\n", e.code, e.what());
        throw std::runtime_error("from middle");
      }
    } catch (const std::runtime_error& e) {
      std::printf("outer caught runtime_error: %s\n", e.what());
    } catch (int v) {
      std::printf("outer caught int %d\n", v);
    } catch (...) {
      std::printf("outer caught something else\n");
    }
  }
  return 0;
}

int case_rethrow() {
  std::exception_ptr saved;
  try {
    try {
      level1(3);
    } catch (...) {
      std::printf("catch(...) saves the exception and rethrows\n");
      saved = std::current_exception();
      throw;
    }
  } catch (const AppError& e) {
    std::printf("rethrown AppError reached the outer handler: %s\n", e.what());
  }
  try {
    std::rethrow_exception(saved);
  } catch (const std::exception& e) {
    std::printf("rethrow_exception: %s\n", e.what());
  }
  try {
    try {
      throw DerivedError("nested", 5);
    } catch (...) {
      std::throw_with_nested(std::runtime_error("outer of nested"));
    }
  } catch (const std::exception& e) {
    std::printf("throw_with_nested outer: %s\n", e.what());
    try {
      std::rethrow_if_nested(e);
    } catch (const AppError& inner) {
      std::printf("  nested inner: %s code %d\n", inner.what(), inner.code);
    }
  }
  return 0;
}

int compare_or_throw(const void* a, const void* b) {
  const int x = *static_cast<const int*>(a), y = *static_cast<const int*>(b);
  if (x == 13 || y == 13) throw AppError("13 seen by the qsort comparator", 13);
  return (x > y) - (x < y);
}

int case_callbacks() {
  std::vector<int> values;
  for (int i = 0; i < 40; ++i) values.push_back((i * 37) % 41);
  try {
    std::qsort(values.data(), values.size(), sizeof(int), compare_or_throw);
    std::printf("qsort finished\n");
  } catch (const AppError& e) {
    std::printf("exception out of qsort: %s\n", e.what());
  }
  std::function<int(int)> callback = [](int v) -> int {
    Guard g("lambda");
    if (v == 3) throw std::out_of_range("callback refused 3");
    return v * v;
  };
  int sum = 0;
  try {
    for (int i = 0; i < 10; ++i) sum += callback(i);
  } catch (const std::out_of_range& e) {
    std::printf("std::function threw after sum %d: %s\n", sum, e.what());
  }
  try {
    std::sort(values.begin(), values.end(), [](int a, int b) {
      if (a == 40) throw std::runtime_error("std::sort comparator saw 40");
      return a < b;
    });
  } catch (const std::runtime_error& e) {
    std::printf("%s\n", e.what());
  }
  try {
    std::vector<std::unique_ptr<Guard>> owned;
    owned.push_back(std::make_unique<Guard>("owned 1"));
    owned.push_back(std::make_unique<Guard>("owned 2"));
    std::for_each(owned.begin(), owned.end(), [](const std::unique_ptr<Guard>& g) {
      if (std::strcmp(g->name_, "owned 2") == 0) throw std::length_error("for_each stopped");
    });
  } catch (const std::length_error& e) {
    std::printf("%s, live guards %d\n", e.what(), live_guards);
  }
  return 0;
}

__attribute__((noinline)) int recurse_then_throw(int depth) {
  Guard* g = depth % 1000 == 0 ? new Guard("every 1000th frame") : nullptr;
  std::unique_ptr<Guard> owner(g);
  if (depth == 0) throw AppError("bottom of the recursion", depth);
  return recurse_then_throw(depth - 1) + 1;
}

int case_loops() {
  // Many throws from deep recursion and in a loop: each must leave the host stack where it was.
  long caught = 0;
  for (int i = 0; i < 20000; ++i) {
    try {
      throw_int(i + 1);
    } catch (int v) {
      caught += v;
    }
  }
  std::printf("caught 20000 ints, sum %ld\n", caught);
  for (int round = 0; round < 3; ++round) {
    try {
      recurse_then_throw(5000);
    } catch (const AppError& e) {
      std::printf("round %d: %s (code %d), live guards %d\n", round, e.what(), e.code, live_guards);
    }
  }
  return 0;
}

int case_uncaught_in_noexcept_free_code() {
  // An exception no handler catches: std::terminate prints the type and what() and aborts. Only the message is
  // compared (the exit status is the platform's SIGABRT, printed by the test wrapper).
  std::set_terminate([] {
    std::printf("terminate handler called\n");
    std::fflush(stdout);
    std::_Exit(3);
  });
  level1(3);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  static const std::pair<const char*, int (*)()> cases[] = {
      {"basic", case_basic},       {"destructors", case_destructors}, {"nested", case_nested},
      {"rethrow", case_rethrow},   {"callbacks", case_callbacks},     {"loops", case_loops},
      {"uncaught", case_uncaught_in_noexcept_free_code},
  };
  if (argc < 2) {
    std::puts("usage: exceptions CASE");
    return 2;
  }
  for (const auto& [name, run] : cases)
    if (std::strcmp(argv[1], name) == 0) {
      const int status = run();
      std::printf("%s: done, live guards %d\n", name, live_guards);
      return status;
    }
  std::fprintf(stderr, "unknown case %s\n", argv[1]);
  return 2;
}
