#pragma once
// docs/switch.md's tables of SVCs and service commands, written from the tables the code dispatches on
// (svc.cpp's SVC list, each service's command table), so the documentation cannot drift from them.
#include <string>

namespace kiln::hos {

std::string implemented_tables_markdown();

} // namespace kiln::hos
