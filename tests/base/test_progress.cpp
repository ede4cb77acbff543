#include <catch2/catch.hpp>

#include "runtime/base/progress.h"

using namespace kiln;

TEST_CASE("progress renders a bar proportional to the work done", "[progress]") {
  Progress progress("shaders", 10);
  CHECK(progress.render() == "shaders [                              ] 0/10");
  progress.advance(5);
  CHECK(progress.render() == "shaders [###############               ] 5/10");
  progress.advance(20);
  CHECK(progress.render() == "shaders [##############################] 10/10");
  CHECK(progress.done() == 25);
}
