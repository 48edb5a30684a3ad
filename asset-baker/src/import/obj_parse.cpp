#include "import/obj_parse.h"

#include "import/mtl_materials.h"
#include "import/obj_lines.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

namespace baker {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// isspace in the C locale: what atoi skips before a number.
bool is_c_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// int arithmetic that wraps (two's complement) where tinyobjloader's overflows.
int wrap_to_int(int64_t v) { return int(uint32_t(uint64_t(v))); }

// The powers tinyobjloader's float parser weighs digits with: its table of 10^-0..10^-7, then
// std::pow(10, -k) for fraction digit k and std::pow(5, e) for an exponent e. The std::pow results
// of the common range are worked out once, by std::pow itself (the same bits): a call per digit
// past the seventh was 5 % of reading a scan whose coordinates have 16 digits (nefertiti.obj).
class ParsePowers {
 public:
  ParsePowers() {
    for (int k = 0; k < kFractionDigits; ++k) tenths_[k] = k < 8 ? kLiteral[k] : std::pow(10.0, -k);
    for (int e = -kExponents; e <= kExponents; ++e) fives_[e + kExponents] = std::pow(5.0, e);
  }
  // The weight of the k-th fraction digit (k >= 1).
  double tenth(int k) const { return k < kFractionDigits ? tenths_[k] : std::pow(10.0, -k); }
  double five_to(int e) const {
    return e >= -kExponents && e <= kExponents ? fives_[e + kExponents] : std::pow(5.0, e);
  }

 private:
  static constexpr double kLiteral[] = {1.0,    0.1,     0.01,     0.001,
                                        0.0001, 0.00001, 0.000001, 0.0000001};
  static constexpr int kFractionDigits = 40, kExponents = 64;
  double tenths_[kFractionDigits];
  double fives_[2 * kExponents + 1];
};
const ParsePowers kPowers;

// tinyobjloader's float grammar and arithmetic (tryParseDouble), so every coordinate gets the bits
// it got: [sign] digits [. digits] [e [sign] digits], or [sign] . digits ...; the digits summed
// into a double (fraction digits times a power of ten), the exponent applied as
// ldexp(m * 5^e, e). Reads as far as the grammar goes; false when no number starts `s`. With
// `end`, the number of characters the number took.
bool parse_double(std::string_view s, double& result, size_t* end = nullptr) {
  const size_t n = s.size();
  if (n == 0) return false;
  size_t i = 0;
  bool negative = false, leading_dot = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    i = 1;
    leading_dot = n > 1 && s[1] == '.';
  } else if (s[0] == '.') {
    leading_dot = true;
  } else if (!is_digit(s[0])) {
    return false;
  }
  double mantissa = 0.0;
  if (!leading_dot) {
    const size_t start = i;
    for (; i < n && is_digit(s[i]); ++i) {
      mantissa *= 10;
      mantissa += int(s[i] - '0');
    }
    if (i == start) return false;
  }
  int exponent = 0;
  if (i < n && s[i] == '.') {
    ++i;
    for (int read = 1; i < n && is_digit(s[i]); ++i, ++read)
      mantissa += int(s[i] - '0') * kPowers.tenth(read);
  }
  if (end) *end = i;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      exponent_negative = s[i] == '-';
      ++i;
    } else if (i >= n || !is_digit(s[i])) {
      return false;
    }
    const size_t start = i;
    int64_t e = 0;
    for (; i < n && is_digit(s[i]); ++i) {
      if (e > INT_MAX / 10) return false;
      e = int64_t(wrap_to_int(e * 10 + (s[i] - '0')));
    }
    if (i == start) return false;
    exponent = wrap_to_int(exponent_negative ? -e : e);
    if (end) *end = i;
  }
  result = (negative ? -1 : 1) *
           (exponent ? std::ldexp(mantissa * kPowers.five_to(exponent), exponent) : mantissa);
  return true;
}

// atoi: C spaces, a sign, digits; strtol's saturation at the long range, then the cast to int.
int c_atoi(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_c_space(s[i])) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  // 18 digits cannot overflow; past them, saturation is checked digit by digit.
  const size_t digits = i;
  uint64_t value = 0;
  for (; i < s.size() && i - digits < 18 && is_digit(s[i]); ++i) value = value * 10 + (s[i] - '0');
  const uint64_t limit = negative ? uint64_t(LONG_MAX) + 1 : uint64_t(LONG_MAX);
  for (; i < s.size() && is_digit(s[i]); ++i) {
    uint64_t digit = uint64_t(s[i] - '0');
    value = value > (limit - digit) / 10 ? limit : value * 10 + digit;
  }
  return wrap_to_int(negative ? int64_t(0 - value) : int64_t(value));
}

// One line being read, with tinyobjloader's token rules: words end at a space or a tab.
struct LineReader {
  std::string_view line;
  size_t at = 0;

  bool done() const { return at >= line.size(); }
  char peek() const { return at < line.size() ? line[at] : '\0'; }
  void skip_blanks() {
    while (at < line.size() && is_blank(line[at])) ++at;
  }
  // The next word (after blanks), consumed.
  std::string_view word() {
    skip_blanks();
    size_t start = at;
    while (at < line.size() && !is_blank(line[at])) ++at;
    return line.substr(start, at - start);
  }
  // The rest of the line, blanks around it dropped, consumed.
  std::string_view rest() {
    skip_blanks();
    size_t end = line.size();
    while (end > at && is_blank(line[end - 1])) --end;
    std::string_view text = line.substr(at, end - at);
    at = line.size();
    return text;
  }
  // The next word as a float; `fallback` when it is not a number (parseReal).
  float real(double fallback) {
    double value = fallback;
    if (!parse_double(word(), value)) value = fallback;
    return float(value);
  }
  bool real(float& out) {
    double value = 0;
    if (!parse_double(word(), value)) return false;
    out = float(value);
    return true;
  }
  // Past the characters of an index (up to '/', a space or a tab).
  void skip_index() {
    while (at < line.size() && line[at] != '/' && !is_blank(line[at])) ++at;
  }
  // A 1-based (or negative, relative to `count`) index as 0-based; false for 0 (not a number).
  bool index(int count, int& out) {
    int value = c_atoi(line.substr(at));
    skip_index();
    if (value == 0) return false;
    out = value > 0 ? value - 1 : count + value < 0 ? kBeforeFirst : count + value;
    return true;
  }
};

// A face index as most files write it: an optional '-' and 1 to 9 digits, not 0, read from `at`
// on. Nothing wider: such an index reads the same as c_atoi reads it and cannot pass 2^31 - 1.
bool plain_index(std::string_view s, size_t& at, int count, int& out) {
  const bool negative = at < s.size() && s[at] == '-';
  at += negative;
  const size_t start = at;
  int value = 0;
  for (; at < s.size() && at - start < 9 && is_digit(s[at]); ++at)
    value = value * 10 + (s[at] - '0');
  if (at == start || value == 0 || (at < s.size() && is_digit(s[at]))) return false;
  out = !negative ? value - 1 : count - value < 0 ? kBeforeFirst : count - value;
  return true;
}

// What the checks need of an index line (after its keyword), in one pass: its words (runs of
// characters other than space and tab: a face's corners) and the first run of digits whose value
// (leading zeros aside) is over 2^31 - 1, without its leading zeros (empty when there is none).
// tinyobjloader's atoi wrapped such an index into a valid one ("f 1 2 4294967299" was a
// triangle), and they are still refused.
struct IndexLineScan {
  uint64_t words = 0;
  std::string_view beyond_int;   // its digits, without leading zeros
  bool beyond_negative = false;  // after a '-': a relative index
};

IndexLineScan scan_index_line(std::string_view text) {
  IndexLineScan scan;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (is_blank(c)) {
      in_word = false;
      ++i;
      continue;
    }
    scan.words += !in_word;
    in_word = true;
    if (!is_digit(c)) {
      ++i;
      continue;
    }
    const bool negative = i > 0 && text[i - 1] == '-';
    while (i < text.size() && text[i] == '0') ++i;
    const size_t start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    std::string_view number = text.substr(start, i - start);
    if (number.size() > 10 || (number.size() == 10 && number > "2147483647")) {
      scan.beyond_int = number;
      scan.beyond_negative = negative;
      return scan;
    }
  }
  return scan;
}

// `word` as a warning quotes it: at most 32 bytes, cut where a UTF-8 character starts.
std::string shown_word(std::string_view word) {
  constexpr size_t kShown = 32;
  if (word.size() <= kShown) return std::string(word);
  size_t cut = kShown;
  while (cut > 0 && (uint8_t(word[cut]) & 0xC0) == 0x80) --cut;
  return std::string(word.substr(0, cut)) + "...";
}

// What is read of a line: up to a NUL, if any.
std::string_view before_nul(std::string_view line) { return line.substr(0, line.find('\0')); }

// Whether `line` is an `mtllib` line: those are read on their own, as the texture plan reads them
// (mtl_materials.h), and their '\' escapes a space in a library's name.
bool is_mtllib_line(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line.substr(first, 6) == "mtllib" &&
         line.size() > first + 6 && (line[first + 6] == ' ' || line[first + 6] == '\t');
}

// Whether `line` (as read: before_nul) goes on in the next: it ends with the format's line
// continuation, '\', and is neither a comment (`# saved to C:\out\`) nor an `mtllib` line.
bool starts_continued(std::string_view line) {
  if (line.empty() || line.back() != '\\' || is_mtllib_line(line)) return false;
  return line[line.find_first_not_of(" \t")] != '#';
}

// `line` and the lines continuing it as one line in `joined`, each '\' and line end read as a
// space; `number` counts the lines taken. An `mtllib` line is never taken. Linear: each line is
// looked at once.
std::string_view join_continued(std::string_view line, ObjLines& lines, size_t& number,
                                std::string& joined) {
  joined.assign(line);
  joined.back() = ' ';
  for (;;) {
    ObjLines ahead = lines;
    std::string_view next;
    if (!ahead.next(next) || is_mtllib_line(before_nul(next))) break;
    lines = ahead;
    ++number;
    next = before_nul(next);
    joined += next;
    if (next.empty() || next.back() != '\\') break;
    joined.back() = ' ';
  }
  return joined;
}

class ObjParser {
 public:
  ObjParser(const std::string& path, MtlLibraries& libraries,
            std::vector<tinyobj::material_t>& materials, uint64_t text_size, ObjGeometry& out)
      : path_(path),
        libraries_(libraries),
        materials_(materials),
        budget_(kTriangulationBudgetBase + kTriangulationBudgetPerByte * text_size),
        out_(out) {}

  // One line as parse_obj reads it: without a NUL (before_nul), continued lines joined.
  BakeStatus line(std::string_view text, size_t number) {
    line_number_ = number;
    LineReader r{text};
    r.skip_blanks();
    if (r.done() || r.peek() == '#') return {};
    std::string_view rest = r.line.substr(r.at);
    auto keyword = [&](std::string_view word) {
      return rest.size() > word.size() && rest.substr(0, word.size()) == word &&
             is_blank(rest[word.size()]);
    };
    if (keyword("f")) return face(r);
    if (keyword("v")) return r.at += 2, vertex(r);
    if (keyword("vn")) return r.at += 3, triple(r, out_.normals);
    if (keyword("vt")) return r.at += 3, uv(r);
    if (keyword("vw")) return r.at += 3, skin_weights(r);
    if (keyword("l") || keyword("p")) return indexed(r);
    // The whole rest of the line, as `newmtl` names a material in the library (tinyobjloader took
    // the first word: "usemtl wood dark" drew with "wood").
    if (rest.substr(0, 6) == "usemtl") return r.at += 6, use_material(r.rest());
    if (keyword("mtllib")) return libraries(r.line.substr(r.at + 7));
    if (keyword("g")) return group(r);
    if (keyword("o")) return object(r.line.substr(r.at + 2));
    if (keyword("s")) return r.at += 2, smoothing(r);
    if (keyword("curv") || keyword("curv2") || keyword("surf"))
      return ++out_.free_form, BakeStatus{};
    if (!defined_statement(rest)) note_unknown(rest);
    // Free-form parameters (cstype, vp, parm, ...), `t` tags, display attributes, and the
    // statements above with nothing after them (`g` alone: the default group).
    return {};
  }

  // Whether `rest` starts with a statement OBJ defines: those read above, and those the baker
  // skips (free-form geometry's parameters and body statements, subdivision tags, display and
  // render attributes; the specification's obsolete ones too).
  static bool defined_statement(std::string_view rest) {
    static constexpr std::string_view kDefined[] = {
        "v",      "vn",     "vt",     "vw",         "f",         "l",     "p",        "g",
        "o",      "s",      "mtllib", "usemtl",     "curv",      "curv2", "surf",     "vp",
        "cstype", "deg",    "bmat",   "step",       "parm",      "trim",  "hole",     "scrv",
        "sp",     "end",    "con",    "mg",         "t",         "bevel", "c_interp", "d_interp",
        "lod",    "maplib", "usemap", "shadow_obj", "trace_obj", "ctech", "stech",    "call",
        "csh",    "bsp",    "bzp",    "cdc",        "cdp",       "res"};
    const std::string_view word = rest.substr(0, std::min(rest.find_first_of(" \t"), rest.size()));
    return std::find(std::begin(kDefined), std::end(kDefined), word) != std::end(kDefined);
  }

  void note_unknown(std::string_view rest) {
    if (out_.unknown_statements++ > 0) return;
    out_.first_unknown_statement =
        std::string(rest.substr(0, std::min(rest.find_first_of(" \t"), size_t(32))));
    out_.first_unknown_line = line_number_;
  }

  void finish() {
    late_materials();
    if (!all_colors_) {
      out_.colors.clear();
      out_.dropped_colors = coloured_;
    }
  }

 private:
  BakeStatus fail(BakeError error, const std::string& what) const {
    return BakeStatus::failure(error, path_, "line " + std::to_string(line_number_) + ": " + what);
  }

  // "v x y z [r g b]": the colour is kept only when every `v` line has one.
  BakeStatus vertex(LineReader& r) {
    point(r, out_.positions);
    if (BakeStatus s = in_float_range(); !s) return s;
    float rgb[3];
    bool color = r.real(rgb[0]) && r.real(rgb[1]) && r.real(rgb[2]);
    all_colors_ = all_colors_ && color;
    coloured_ += color;
    if (all_colors_) out_.colors.insert(out_.colors.end(), rgb, rgb + 3);
    return {};
  }
  BakeStatus triple(LineReader& r, std::vector<float>& to) {
    point(r, to);
    return in_float_range();
  }
  // The x, y and z of a `v` or `vn` line; one missing reads as 0 and is counted.
  void point(LineReader& r, std::vector<float>& to) {
    bool short_line = false;
    for (int k = 0; k < 3; ++k) {
      r.skip_blanks();
      short_line = short_line || r.done();
      to.push_back(coordinate(r));
    }
    out_.short_lines += short_line;
  }
  BakeStatus uv(LineReader& r) {
    for (int k = 0; k < 2; ++k) out_.uvs.push_back(coordinate(r));
    return in_float_range();
  }
  // A number beyond the float range would be baked as an infinity: no vertex format holds it.
  BakeStatus in_float_range() {
    if (beyond_float_.empty()) return {};
    return fail(BakeError::InvalidSource, "coordinate '" + beyond_float_ +
                                              "' does not read as a finite float (beyond 3.4e38)");
  }
  // One number of a `v`, `vn` or `vt` line; one that is there but not a number ("nan", "inf",
  // text) reads as 0, as LoadObj read it, and is counted for a warning. A missing one is 0. A
  // number followed by more of its word ("1,5" from a decimal comma, "0x1p-1") reads up to where
  // the number ends, and is counted for a warning too.
  float coordinate(LineReader& r) {
    r.skip_blanks();
    if (r.done()) return 0.0f;
    // Read where the number starts rather than out of its word: no number takes a blank, so it
    // ends where it would in its word, and the word is looked at only when something is off.
    const size_t start = r.at;
    double value = 0;
    size_t end = 0;
    const bool read = parse_double(r.line.substr(start), value, &end);
    r.at = start + (read ? end : 0);
    const bool whole = read && (r.done() || is_blank(r.peek()));
    if (whole && std::isfinite(float(value))) return float(value);
    r.at = start;
    const std::string_view word = r.word();
    if (!read) {
      ++out_.unreadable_numbers;
      return 0.0f;
    }
    if (!whole && out_.cut_numbers++ == 0) out_.first_cut_number = shown_word(word);
    if (!std::isfinite(float(value))) beyond_float_ = shown_word(word);
    return float(value);
  }

  // "vw vertex joint weight ...": not baked, but a negative joint failed tinyobjloader's parse.
  BakeStatus skin_weights(LineReader& r) {
    r.word();  // the vertex
    // Pairs until the end of the line; trailing blanks read as one more pair, without a joint.
    for (; !r.done(); r.skip_blanks()) {
      float joint = r.real(-1.0);
      r.real(0.0);
      if (joint < 0)
        return fail(BakeError::InvalidSource, "a vw skin weight with a negative or no joint");
    }
    return {};
  }

  // One corner "v", "v/t", "v//n" or "v/t/n" (tinyobjloader's parseTriple).
  bool corner(LineReader& r, ObjCorner& c) {
    const int positions = int(out_.positions.size() / 3), normals = int(out_.normals.size() / 3),
              uvs = int(out_.uvs.size() / 2);
    if (!r.index(positions, c.position)) return false;
    if (r.peek() != '/') return true;
    ++r.at;
    if (r.peek() == '/') {
      ++r.at;
      return r.index(normals, c.normal);
    }
    if (!r.index(uvs, c.uv)) return false;
    if (r.peek() != '/') return true;
    ++r.at;
    return r.index(normals, c.normal);
  }

  // A face line of plain corners (plain_index; "v", "v/t", "v//n" or "v/t/n", blank-separated)
  // appended to out_.corners in one pass: most of an OBJ. Such a line holds no index beyond 2^31
  // - 1 and one word per corner, so it reads as the general path reads it. False, with nothing
  // appended, for any other line, and as soon as a face is over the corner limit (a hostile line of
  // a billion corners allocates nothing): the general path reads it and reports what is wrong.
  bool plain_face(std::string_view s, size_t at) {
    const int positions = int(out_.positions.size() / 3), normals = int(out_.normals.size() / 3),
              uvs = int(out_.uvs.size() / 2);
    const size_t first = out_.corners.size();
    auto next_is = [&](char c) { return at < s.size() && s[at] == c; };
    // A '#' ends the face as the line's end does (indexed() cuts the line there).
    auto ends = [&] { return at >= s.size() || s[at] == '#'; };
    while (!ends() && is_blank(s[at])) ++at;
    while (!ends()) {
      ObjCorner& c = out_.corners.emplace_back();
      bool ok = plain_index(s, at, positions, c.position);
      if (ok && next_is('/')) {
        ++at;
        if (next_is('/')) {
          ++at;
          ok = plain_index(s, at, normals, c.normal);
        } else {
          ok = plain_index(s, at, uvs, c.uv);
          if (ok && next_is('/')) ok = plain_index(s, ++at, normals, c.normal);
        }
      }
      if (!ok || (!ends() && !is_blank(s[at])) ||
          out_.corners.size() - first > kMaxPolygonCorners) {
        out_.corners.resize(first);
        return false;
      }
      while (!ends() && is_blank(s[at])) ++at;
    }
    return true;
  }

  // An `f` line: most are plain (plain_face); indexed() reads and checks the others.
  BakeStatus face(LineReader& r) {
    const size_t first = out_.corners.size();
    if (plain_face(r.line, r.at + 2)) {
      if (BakeStatus s = check_face_budget(out_.corners.size() - first); !s) return s;
      return add_face(first);
    }
    return indexed(r);
  }

  // `f`, `l` and `p` lines: indices checked; faces kept. No index holds a '#': one starts a
  // comment at the end of the line ("f 1 2 3 # quad half").
  BakeStatus indexed(LineReader& r) {
    r.line = r.line.substr(0, r.line.find('#'));
    const char kind = r.peek();
    const IndexLineScan scan = scan_index_line(r.line.substr(r.at + 1));
    if (!scan.beyond_int.empty()) {
      return fail(BakeError::LimitExceeded,
                  "index " + std::string(scan.beyond_negative ? "-" : "") +
                      std::string(scan.beyond_int) + " is beyond " +
                      (scan.beyond_negative ? "-2147483647" : "2147483647"));
    }
    if (kind == 'f') {
      if (BakeStatus s = check_face_budget(scan.words); !s) return s;
    }
    r.at += 2;
    if (kind == 'f') r.skip_blanks();
    const size_t first = out_.corners.size();
    for (; !r.done(); r.skip_blanks()) {
      ObjCorner c;
      if (!corner(r, c)) {
        out_.corners.resize(first);
        return fail(BakeError::InvalidSource, std::string("`") + kind +
                                                  "' line: an index is 0 or not a number (OBJ "
                                                  "indices start at 1)");
      }
      if (kind == 'f') out_.corners.push_back(c);
    }
    if (kind != 'f') ++out_.lines_and_points;
    return add_face(first);
  }

  // The corners from `first` on as a face of the current group, material and smoothing group.
  BakeStatus add_face(size_t first) {
    const size_t count = out_.corners.size() - first;
    if (count < 3) {  // not a face: dropped (`l` and `p` keep no corners; they are counted apart)
      out_.short_faces += count > 0;
      out_.corners.resize(first);
      return {};
    }
    if (!group_named_) {
      out_.group_names.push_back(group_name_);
      group_named_ = true;
      faces_in_group_ = 0;
    }
    out_.faces.push_back({uint32_t(first), uint32_t(count), material_, smoothing_group_,
                          uint32_t(out_.group_names.size() - 1), ++faces_in_group_});
    return {};
  }

  BakeStatus check_face_budget(uint64_t corners) {
    if (corners > kMaxPolygonCorners) {
      return fail(BakeError::LimitExceeded, "a face of " + std::to_string(corners) +
                                                " corners is over the " +
                                                std::to_string(kMaxPolygonCorners) +
                                                "-corner limit (triangulate it when exporting)");
    }
    if (corners > 4) work_ += corners * corners;
    if (work_ > budget_) {
      return fail(BakeError::LimitExceeded,
                  "the faces of more than 4 corners up to here need " + std::to_string(work_) +
                      " corners squared of triangulation, over the budget of " +
                      std::to_string(budget_) +
                      " for a file of this size (2^24 + 64 per byte; triangulate them when "
                      "exporting)");
    }
    return {};
  }

  // A name no library loaded so far defines is looked up again at the end (late_materials), so
  // an `mtllib` after its `usemtl` still applies, as in Blender; tinyobjloader gave such faces
  // no material.
  BakeStatus use_material(std::string_view name) {
    auto it = material_map_.find(std::string(name));
    if (it != material_map_.end()) {
      material_ = it->second;
      return {};
    }
    auto [late, added] = late_names_.try_emplace(std::string(name), int(late_names_.size()));
    if (added) late_order_.push_back(&late->first);
    material_ = kLateMaterial - late->second;
    return {};
  }

  // Faces whose `usemtl` came before the library defining it get that material; names no library
  // defines become ObjGeometry::unknown_materials, in order of first use, and their faces none.
  void late_materials() {
    if (late_order_.empty()) return;
    std::vector<int> resolved(late_order_.size(), -1);
    std::vector<bool> used(late_order_.size(), false);
    for (size_t k = 0; k < late_order_.size(); ++k) {
      auto it = material_map_.find(*late_order_[k]);
      if (it != material_map_.end()) resolved[k] = it->second;
    }
    for (ObjFace& face : out_.faces) {
      if (face.material > kLateMaterial) continue;
      const size_t k = size_t(kLateMaterial - face.material);
      face.material = resolved[k];
      if (resolved[k] < 0 && !used[k]) out_.unknown_materials.push_back(*late_order_[k]);
      used[k] = true;
    }
  }

  // The rest of an `mtllib` line names one library, spaces included (MtlLibraries); a line of
  // only blanks is split as tinyobjloader splits it. A name that loaded is not asked again.
  BakeStatus libraries(std::string_view rest) {
    std::string_view names = rest;
    names.remove_prefix(std::min(names.find_first_not_of(" \t"), names.size()));
    while (!names.empty() && is_blank(names.back())) names.remove_suffix(1);
    std::vector<std::string> requests =
        names.empty() ? split_library_names(rest) : std::vector<std::string>{std::string(names)};
    for (const std::string& request : requests) {
      if (loaded_.count(request)) continue;
      if (libraries_.load_line(request, &materials_, &material_map_)) {
        loaded_.insert(request);
        return {};
      }
    }
    return {};
  }

  void start_group(std::string name) {
    group_name_ = std::move(name);
    group_named_ = false;
  }
  // "g a b": the names joined by one space.
  BakeStatus group(LineReader& r) {
    r.word();  // "g"
    std::string name;
    for (std::string_view w = r.word(); !w.empty(); w = r.word()) {
      if (!name.empty()) name += ' ';
      name += w;
    }
    start_group(std::move(name));
    return {};
  }
  BakeStatus object(std::string_view rest) {
    start_group(std::string(rest));
    return {};
  }

  // "s off", "s 0" (flat) or "s <n>": each number a group of its own, however many digits it has
  // (3ds Max writes group bit masks; an int wrapped 2^32 + 1 onto group 1 and 2^31 onto flat). A
  // negative number, or none, is flat. A group below 2^31 keeps its number (as LoadObj gives it);
  // larger ones are numbered from 2^31 in order of first use.
  BakeStatus smoothing(LineReader& r) {
    r.skip_blanks();
    if (r.done()) return {};
    std::string_view rest = r.line.substr(r.at);
    out_.smoothing_stated = true;
    if (!rest.empty() && rest[0] == '+') rest.remove_prefix(1);
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    std::string_view number = rest.substr(0, digits);
    while (!number.empty() && number[0] == '0') number.remove_prefix(1);
    if (number.empty()) {
      smoothing_group_ = 0;
      return {};
    }
    if (number.size() <= 10) {
      const uint64_t value = std::strtoull(std::string(number).c_str(), nullptr, 10);
      if (value < (1u << 31)) {
        smoothing_group_ = uint32_t(value);
        return {};
      }
    }
    auto [group, added] = large_smoothing_groups_.try_emplace(
        std::string(number), uint32_t((1u << 31) + large_smoothing_groups_.size()));
    smoothing_group_ = group->second;
    return {};
  }

  const std::string& path_;
  MtlLibraries& libraries_;
  std::vector<tinyobj::material_t>& materials_;
  std::map<std::string, int> material_map_;
  std::set<std::string> loaded_;
  const uint64_t budget_;
  uint64_t work_ = 0;  // corners squared of the faces over 4 corners so far
  ObjGeometry& out_;
  size_t line_number_ = 0;
  bool all_colors_ = true;
  size_t coloured_ = 0;  // `v` lines with a colour
  // Faces read under a `usemtl` name not yet defined hold kLateMaterial - k, k its entry in
  // late_names_ (numbered in order of first use, as late_order_ lists them).
  static constexpr int kLateMaterial = -2;
  int material_ = -1;
  std::map<std::string, int> late_names_;
  std::vector<const std::string*> late_order_;
  uint32_t smoothing_group_ = 0;
  std::map<std::string, uint32_t> large_smoothing_groups_;  // by the number's digits
  std::string beyond_float_;  // a coordinate of the current line that no float holds
  std::string group_name_;
  bool group_named_ = false;
  uint32_t faces_in_group_ = 0;
};

}  // namespace

BakeStatus parse_obj(std::string_view text, const std::string& relative_path,
                     MtlLibraries& libraries, std::vector<tinyobj::material_t>& materials,
                     ObjGeometry& out) {
  ObjParser parser(relative_path, libraries, materials, text.size(), out);
  ObjLines lines(text);
  std::string joined;
  size_t number = 1;
  // One look for a NUL over the whole text rather than one per line: real files hold none.
  const bool any_nul = !text.empty() && std::memchr(text.data(), '\0', text.size()) != nullptr;
  for (std::string_view line; lines.next(line); ++number) {
    const size_t first = number;
    if (any_nul) line = before_nul(line);
    if (starts_continued(line)) line = join_continued(line, lines, number, joined);
    if (BakeStatus s = parser.line(line, first); !s) return s;
  }
  parser.finish();
  return {};
}

}  // namespace baker
