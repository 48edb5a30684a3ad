// "Did you mean": the known name nearest to a misspelt one, for config keys and preset names.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

// The candidate within two edits (insert, delete, substitute, swap of neighbours) of `typo`,
// nearest first, ties to the earlier candidate; "" when none is that close. Names of one or two
// characters are never "corrected" into each other.
std::string closest_name(std::string_view typo, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for the closest candidate, "" when there is none.
std::string did_you_mean(std::string_view typo, const std::vector<std::string>& candidates);

}  // namespace baker
