// Glob patterns of baker.json rules (pipeline/glob_match.h), against root-relative '/' paths.
#include "pipeline/glob_match.h"

#include <catch2/catch.hpp>

#include <string>

using baker::glob_match;

TEST_CASE("glob: a pattern without a slash matches the file name in any folder", "[glob]") {
  CHECK(glob_match("*.png", "a.png"));
  CHECK(glob_match("*.png", "textures/a.png"));
  CHECK(glob_match("*.png", "a/b/c/d.png"));
  CHECK(glob_match("wall.png", "a/b/wall.png"));
  CHECK_FALSE(glob_match("wall.png", "a/b/mywall.png"));
  CHECK_FALSE(glob_match("*.png", "a.png.bak"));
  CHECK_FALSE(glob_match("*.png", "x.png/readme.txt"));
}

TEST_CASE("glob: a pattern with a slash is anchored at the root", "[glob]") {
  CHECK(glob_match("textures/*.png", "textures/a.png"));
  CHECK_FALSE(glob_match("textures/*.png", "other/textures/a.png"));
  CHECK_FALSE(glob_match("textures/*.png", "textures/sub/a.png"));
}

TEST_CASE("glob: a star matches within one component, possibly nothing", "[glob]") {
  CHECK(glob_match("te*es/a.png", "textures/a.png"));
  CHECK(glob_match("a/*b.png", "a/b.png"));
  CHECK(glob_match("a/*", "a/anything.obj"));
  CHECK_FALSE(glob_match("t*/a.png", "t/x/a.png"));
  CHECK_FALSE(glob_match("a/*", "a/b/c.obj"));
  CHECK_FALSE(glob_match("textures*png", "textures/a.png"));
}

TEST_CASE("glob: a double star crosses components, including none", "[glob]") {
  CHECK(glob_match("ui/**", "ui/a.png"));
  CHECK(glob_match("ui/**", "ui/x/y/a.png"));
  CHECK_FALSE(glob_match("ui/**", "gui/a.png"));
  CHECK_FALSE(glob_match("ui/**", "a/ui/b.png"));
  CHECK(glob_match("a/**/b.png", "a/b.png"));
  CHECK(glob_match("a/**/b.png", "a/x/b.png"));
  CHECK(glob_match("a/**/b.png", "a/x/y/b.png"));
  CHECK_FALSE(glob_match("a/**/b.png", "ab.png"));
  CHECK_FALSE(glob_match("a/**/b.png", "a/xb.png"));
}

TEST_CASE("glob: a leading double star and slash also matches a top-level file", "[glob]") {
  CHECK(glob_match("**/x.png", "x.png"));
  CHECK(glob_match("**/x.png", "a/x.png"));
  CHECK(glob_match("**/x.png", "a/b/x.png"));
  CHECK_FALSE(glob_match("**/x.png", "ax.png"));
  CHECK_FALSE(glob_match("**/x.png", "a/bx.png"));
}

TEST_CASE("glob: a lone double star matches every path", "[glob]") {
  CHECK(glob_match("**", "a.png"));
  CHECK(glob_match("**", "a/b/c.png"));
}

TEST_CASE("glob: consecutive double stars behave as one", "[glob]") {
  CHECK(glob_match("**/**/a.png", "a.png"));
  CHECK(glob_match("**/**/a.png", "x/y/a.png"));
  CHECK(glob_match("a/**/**/b", "a/b"));
  CHECK(glob_match("a/**/**/b", "a/x/y/b"));
  CHECK_FALSE(glob_match("**/**/a.png", "x/ba.png"));
}

TEST_CASE("glob: a question mark matches one character but never a slash", "[glob]") {
  CHECK(glob_match("?.png", "a.png"));
  CHECK(glob_match("?.png", "dir/b.png"));
  CHECK_FALSE(glob_match("?.png", "ab.png"));
  CHECK_FALSE(glob_match("?.png", ".png"));
  CHECK_FALSE(glob_match("x?y/a.png", "x/y/a.png"));
  CHECK(glob_match("x?y/a.png", "x_y/a.png"));
}

TEST_CASE("glob: matching is case-sensitive", "[glob]") {
  CHECK_FALSE(glob_match("*.PNG", "a.png"));
  CHECK_FALSE(glob_match("*.png", "A.PNG"));
  CHECK_FALSE(glob_match("Textures/**", "textures/a.png"));
  CHECK(glob_match("*.PNG", "A.PNG"));
}

TEST_CASE("glob: an empty pattern matches no file", "[glob]") {
  CHECK_FALSE(glob_match("", "a.png"));
  CHECK_FALSE(glob_match("", "a/b.png"));
}

TEST_CASE("glob: a pattern ending in a slash matches no file", "[glob]") {
  // As implemented (not .gitignore's "folder and its contents"): rules name files, never folders.
  CHECK_FALSE(glob_match("textures/", "textures/a.png"));
  CHECK_FALSE(glob_match("textures/", "textures"));
  CHECK(glob_match("textures/**", "textures/a.png"));
}

TEST_CASE("glob: a leading slash matches no root-relative path", "[glob]") {
  // As implemented: paths never start with '/', so "/a.png" is not an anchor as in .gitignore.
  CHECK_FALSE(glob_match("/a.png", "a.png"));
}

TEST_CASE("glob: brackets and other characters are literal", "[glob]") {
  CHECK(glob_match("[ab].png", "[ab].png"));
  CHECK_FALSE(glob_match("[ab].png", "a.png"));
  CHECK(glob_match("a+b (1).png", "dir/a+b (1).png"));
}

TEST_CASE("glob: many stars against a long name answer at once, not in exponential time",
          "[glob]") {
  // Trying every split for every star took 37 s at 34 characters and doubles with each one more;
  // at 200 it would not end. Memoised, each (pattern, path) position is tried once.
  std::string stars;
  for (int k = 0; k < 12; ++k) stars += "*a";
  const std::string name = std::string(200, 'a') + ".png";
  CHECK_FALSE(glob_match(stars + "*b", name));
  CHECK(glob_match(stars + "*.png", name));
  CHECK_FALSE(glob_match("**/" + stars + "/**/*b", "x/" + name + "/y/" + name));
}
