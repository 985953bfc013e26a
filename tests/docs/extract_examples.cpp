// Turns the code examples of the documentation into one GoogleTest source, so that every
// example is compiled exactly as written (and most are run) with the tests. Nothing is added to
// an example but the wrapper its kind asks for; `#include` lines are moved to the top of the
// generated file.
//
// Markdown pages (README.md, docs/*.md): each page is one namespace, its ```cpp blocks in order.
//   ```cpp          statements: the body of a test that runs them
//   ```cpp top      declarations at the page's namespace scope, for the blocks after them
//   ```cpp norun    statements that need a window or a display: a function, compiled, not run
//   ```cpp window   the same, on a page that is not about windows: compiled only where the
//                   window library is built (CADENCE_DOC_WINDOW)
// Headers (*.hpp): each example in a comment, a run of lines that start with `//` or `///` and
// exactly five spaces (the first line not blank), is the body of an inline function of its
// own, compiled and never called: it must declare what it uses itself.
//
// Usage: extract_examples <output.cpp> <page.md | header.hpp>...
#include <cctype>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Block {
  std::string kind;  // "", "top" or "norun"
  std::string code;
  int line = 0;
};

std::string identifier(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  base = base.substr(0, base.find('.'));
  for (char& c : base) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return base;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: extract_examples <output.cpp> <page.md>...\n";
    return 2;
  }
  std::set<std::string> includes;
  std::set<std::string> window_includes;  // of ```cpp window blocks: only with the window library
  std::ostringstream body;
  int total = 0;
  for (int a = 2; a < argc; ++a) {
    std::ifstream in(argv[a]);
    if (!in) {
      std::cerr << "extract_examples: cannot read " << argv[a] << "\n";
      return 1;
    }
    const std::string path = argv[a];
    std::vector<Block> blocks;
    std::string line;
    bool inside = false;
    int number = 0;
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".hpp") == 0) {
      // A header: comment lines "//     code" or "///     code" (inside a class, indented).
      bool in_example = false;
      while (std::getline(in, line)) {
        ++number;
        const std::size_t slash = line.find_first_not_of(' ');
        std::size_t text = std::string::npos;
        if (slash != std::string::npos && line.compare(slash, 2, "//") == 0) {
          std::size_t after = slash + 2;
          if (after < line.size() && line[after] == '/') ++after;
          if (line.compare(after, 5, "     ") == 0) text = after + 5;
        }
        if (text == std::string::npos) {
          in_example = false;
          continue;
        }
        const std::string code = line.substr(text);
        if (!in_example) {
          if (code.empty() || code[0] == ' ') continue;  // a continued line of prose, not an example
          in_example = true;
          blocks.push_back(Block{"header", {}, number});
        }
        if (code.rfind("#include", 0) == 0) {
          includes.insert(code);
        } else {
          blocks.back().code += code + "\n";
        }
      }
      const std::string name = identifier(path);
      for (const Block& b : blocks) {
        body << "namespace header_" << name << "_line_" << b.line << " {\n#line " << b.line << " \"" << path
             << "\"\n[[maybe_unused]] inline void example() {\n" << b.code << "}\n}\n";
        ++total;
      }
      continue;
    }
    while (std::getline(in, line)) {
      ++number;
      if (!inside && line.rfind("```cpp", 0) == 0) {
        inside = true;
        std::string kind = line.substr(6);
        kind.erase(0, kind.find_first_not_of(' '));
        blocks.push_back(Block{kind, {}, number});
      } else if (inside && line.rfind("```", 0) == 0) {
        inside = false;
      } else if (inside) {
        if (line.rfind("#include", 0) == 0) {
          (blocks.back().kind == "window" ? window_includes : includes).insert(line);
        } else {
          blocks.back().code += line + "\n";
        }
      }
    }
    if (inside) {
      std::cerr << argv[a] << ": a ```cpp block is not closed\n";
      return 1;
    }
    const std::string page = identifier(argv[a]);
    body << "namespace doc_" << page << " {\n";
    for (const Block& b : blocks) {
      body << "#line " << b.line + 1 << " \"" << argv[a] << "\"\n";
      if (b.kind == "top") {
        body << b.code;
      } else if (b.kind == "norun") {
        body << "[[maybe_unused]] inline void compiled_only_line_" << b.line << "() {\n" << b.code << "}\n";
      } else if (b.kind == "window") {
        body << "#if CADENCE_DOC_WINDOW\n[[maybe_unused]] inline void compiled_only_line_" << b.line << "() {\n"
             << b.code << "}\n#endif\n";
      } else {
        body << "TEST(DocExample, " << page << "_line_" << b.line << ") {\n" << b.code << "}\n";
      }
      ++total;
    }
    body << "}  // namespace doc_" << page << "\n\n";
  }
  std::ofstream out(argv[1]);
  out << "// Generated by tests/docs/extract_examples.cpp from the docs and headers. Do not edit.\n";
  out << "#include <gtest/gtest.h>\n";
  for (const std::string& inc : includes) out << inc << "\n";
  out << "#if CADENCE_DOC_WINDOW\n";
  for (const std::string& inc : window_includes) out << inc << "\n";
  out << "#endif\n";
  out << "\n" << body.str();
  if (!out) {
    std::cerr << "extract_examples: cannot write " << argv[1] << "\n";
    return 1;
  }
  std::cout << "extract_examples: " << total << " examples from " << argc - 2 << " files\n";
  return 0;
}
