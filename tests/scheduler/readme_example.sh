# Sourced by the scheduler tests: readme_example NAME prints the code block that follows the line
# "<!-- example: NAME -->" in the README, so the tests run the README's examples as written.
# Fails when the block is missing or empty.
readme_example() {
  local text
  text=$(awk -v marker="<!-- example: $1 -->" '
    $0 == marker { state = 1; next }
    state == 1 && /^```/ { state = 2; next }
    state == 2 && /^```/ { exit }
    state == 2 { print }
  ' "$SRC/README.md")
  if [ -z "$text" ]; then
    echo "readme_example: no '<!-- example: $1 -->' code block in $SRC/README.md" >&2
    return 1
  fi
  printf '%s\n' "$text"
}
