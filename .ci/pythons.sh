# shellcheck shell=bash
# Sourced by .ci/run and .ci/lowest: find_python X.Y prints an interpreter of that version.
# It looks on PATH (pythonX.Y), then in pyenv's versions; with none found it fails loudly, since
# a matrix cell that quietly ran another Python would claim a test it never made.
find_python() {
  local want=$1 cand root override="PYTHON_${1//./}"
  if [ -n "${!override:-}" ]; then  # e.g. PYTHON_313=/opt/python3.13/bin/python3
    echo "${!override}"
    return 0
  fi
  for cand in "python$want" "python3"; do
    if command -v "$cand" >/dev/null 2>&1 &&
       [ "$("$cand" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$want" ]; then
      command -v "$cand"
      return 0
    fi
  done
  root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
  for cand in "$root"/versions/"$want".*/bin/python3; do
    if [ -x "$cand" ]; then
      echo "$cand"
      return 0
    fi
  done
  echo "CI: no Python $want found (PATH, pyenv); install it (pyenv install $want) or set PYTHON_${want//./}" >&2
  return 1
}
