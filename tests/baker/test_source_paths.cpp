// Paths inside the input tree (common/source_paths.h): references a source names, resolved against
// its folder and refused when they leave the root; symlinks out of the root; extension helpers.
#include "temp_dir.h"

#include "common/source_paths.h"

#include <catch2/catch.hpp>

#include <optional>

using baker::resolve_reference;
namespace fs = std::filesystem;

namespace {

// The resolved path, or "refused: <why>".
std::string resolved(std::string_view base, std::string_view reference) {
  std::string why;
  std::optional<std::string> out = resolve_reference(base, reference, &why);
  if (out) {
    CHECK(why.empty());
    return *out;
  }
  CHECK_FALSE(why.empty());
  return "refused: " + why;
}

bool refused(std::string_view base, std::string_view reference) {
  return !resolve_reference(base, reference, nullptr).has_value();
}

}  // namespace

TEST_CASE("paths: a reference resolves against the folder of the source", "[paths]") {
  CHECK(resolved("models", "a.png") == "models/a.png");
  CHECK(resolved("", "a.png") == "a.png");
  CHECK(resolved("models/cars", "tex/a b.png") == "models/cars/tex/a b.png");
  CHECK(resolved("models", "./a.png") == "models/a.png");
  CHECK(resolved("models", "tex//a.png") == "models/tex/a.png");
}

TEST_CASE("paths: dot-dot that stays inside the root is resolved", "[paths]") {
  CHECK(resolved("models", "../textures/a.png") == "textures/a.png");
  CHECK(resolved("models/cars", "../../a.png") == "a.png");
  CHECK(resolved("m", "sub/../a.png") == "m/a.png");
  CHECK(resolved("a/b", "../c/../d/./e.png") == "a/d/e.png");
}

TEST_CASE("paths: dot-dot that climbs above the root is refused", "[paths]") {
  CHECK(resolved("models", "../../a.png").rfind("refused: ", 0) == 0);
  CHECK(resolved("", "../a.png").find("leaves the input folder") != std::string::npos);
  CHECK(refused("", "a/../../b.png"));
  CHECK(refused("models", "../../models/a.png"));  // climbs out even though it would come back
  CHECK(refused("", ".."));
  CHECK(refused("", "."));
}

TEST_CASE("paths: backslashes count as separators", "[paths]") {
  CHECK(resolved("models", "..\\textures\\a.png") == "textures/a.png");
  CHECK(resolved("models", "tex\\a.png") == "models/tex/a.png");
  CHECK(refused("models", "..\\..\\a.png"));
}

TEST_CASE("paths: absolute references and drive letters are refused", "[paths]") {
  CHECK(resolved("models", "/etc/passwd").find("absolute") != std::string::npos);
  CHECK(resolved("models", "\\etc\\passwd").find("absolute") != std::string::npos);
  CHECK(resolved("models", "C:\\textures\\a.png").find("absolute") != std::string::npos);
  CHECK(refused("models", "c:/textures/a.png"));
  CHECK(refused("models", "D:a.png"));
  CHECK(refused("models", "\\\\server\\share\\a.png"));
  CHECK(refused("models", "//server/share/a.png"));
  // A drive letter reached by climbing (fuzz_obj_import: "mtllib ../e:" from a subfolder).
  CHECK(resolved("models", "../e:").find("refused") != std::string::npos);
  CHECK(refused("a/b", "../../C:/x.mtl"));
  CHECK(refused("models", "../e:x"));
  CHECK(resolved("models", "../ex:") == "ex:");  // a colon elsewhere is no drive letter
}

TEST_CASE("paths: an empty reference is refused, with or without a reason asked for", "[paths]") {
  CHECK(resolved("models", "") == "refused: empty path");
  CHECK(refused("models", ""));
  CHECK(refused("", ""));
}

TEST_CASE("paths: inside_root accepts files inside the root, existing or not", "[paths]") {
  test::TempDir dir;
  fs::path root = dir.path() / "root";
  dir.write("root/textures/a.png", "x");
  fs::path canonical_root = fs::canonical(root);
  std::optional<fs::path> a = baker::inside_root(root, "textures/a.png");
  REQUIRE(a);
  CHECK(*a == canonical_root / "textures/a.png");
  std::optional<fs::path> missing = baker::inside_root(root, "textures/missing.png");
  REQUIRE(missing);
  CHECK(*missing == canonical_root / "textures/missing.png");
  CHECK(baker::inside_root(root, "textures/../textures/a.png") == a);
  CHECK(baker::inside_root(root.string() + "/", "textures/a.png") == a);
}

TEST_CASE("paths: inside_root refuses paths that climb out or are absolute", "[paths]") {
  test::TempDir dir;
  dir.write("root/a.png", "x");
  dir.write("outside.png", "x");
  fs::path root = dir.path() / "root";
  CHECK_FALSE(baker::inside_root(root, "../outside.png"));
  CHECK_FALSE(baker::inside_root(root, (dir.path() / "outside.png").string()));
  CHECK_FALSE(baker::inside_root(root, "../root-sibling/a.png"));
}

TEST_CASE("paths: inside_root refuses a symlink that leads out of the root", "[paths]") {
  test::TempDir dir;
  dir.write("root/a.png", "x");
  dir.write("secret/key.png", "x");
  fs::path root = dir.path() / "root";
  fs::create_directory_symlink(dir.path() / "secret", root / "linked_dir");
  fs::create_symlink(dir.path() / "secret/key.png", root / "linked.png");
  fs::create_symlink("../secret/key.png", root / "relative_link.png");
  CHECK_FALSE(baker::inside_root(root, "linked_dir/key.png"));
  CHECK_FALSE(baker::inside_root(root, "linked_dir/missing.png"));
  CHECK_FALSE(baker::inside_root(root, "linked.png"));
  CHECK_FALSE(baker::inside_root(root, "relative_link.png"));
}

TEST_CASE("paths: inside_root follows a symlink that stays inside the root", "[paths]") {
  test::TempDir dir;
  dir.write("root/textures/a.png", "x");
  fs::path root = dir.path() / "root";
  fs::create_directory_symlink("textures", root / "alias");
  std::optional<fs::path> p = baker::inside_root(root, "alias/a.png");
  REQUIRE(p);
  CHECK(*p == fs::canonical(root) / "textures/a.png");
}

TEST_CASE("paths: inside_root accepts a root that is itself a symlink", "[paths]") {
  test::TempDir dir;
  dir.write("real/a.png", "x");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "root");
  std::optional<fs::path> p = baker::inside_root(dir.path() / "root", "a.png");
  REQUIRE(p);
  CHECK(*p == fs::canonical(dir.path() / "real") / "a.png");
}

TEST_CASE("paths: with_extension replaces the extension of the file name only", "[paths]") {
  CHECK(baker::with_extension("a/b.png", ".tx") == "a/b.tx");
  CHECK(baker::with_extension("b.PNG", ".tx") == "b.tx");
  CHECK(baker::with_extension("a/b", ".tx") == "a/b.tx");
  CHECK(baker::with_extension("a.d/b", ".mesh") == "a.d/b.mesh");
  CHECK(baker::with_extension("a/b.tar.gz", ".tx") == "a/b.tar.tx");
  CHECK(baker::with_extension("a/b.", ".tx") == "a/b.tx");
}

TEST_CASE("paths: lower_extension is the last extension of the file name, lower-cased", "[paths]") {
  CHECK(baker::lower_extension("a/B.PNG") == ".png");
  CHECK(baker::lower_extension("a.JpEg") == ".jpeg");
  CHECK(baker::lower_extension("a/b.tar.GZ") == ".gz");
  CHECK(baker::lower_extension("a.d/b") == "");
  CHECK(baker::lower_extension("noext") == "");
  CHECK(baker::lower_extension("") == "");
  CHECK(baker::lower_extension("a/b.") == ".");
}

TEST_CASE("paths: parent_of is the folder part of a root-relative path", "[paths]") {
  CHECK(baker::parent_of("models/a.obj") == "models");
  CHECK(baker::parent_of("a/b/c.obj") == "a/b");
  CHECK(baker::parent_of("a.obj") == "");
  CHECK(baker::parent_of("") == "");
}
