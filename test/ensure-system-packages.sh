#!/usr/bin/env bash
# System packages the notebook and report tests need, on Debian: jupyter's nbconvert and
# nbclient with an ipykernel (they run the TypeScript notebooks through tslab), chromium
# (the report page and figure layout checks, driven by playwright-core), pdfLaTeX with the
# packages the report's LaTeX loads (latex-base: graphicx, geometry, array, tabularx,
# longtable; latex-recommended: booktabs; about 100 MB, no font packages beyond what they
# bring), poppler-utils (pdffonts, to check the figures' fonts are embedded) and fio (the
# harness's fio backend and the fio outputs the ingest reads, 3.33 in Debian 12). Installed
# with apt-get when missing (as root, as CI runs); does nothing when they are already there.
set -euo pipefail
packages=(jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-client chromium texlive-latex-base texlive-latex-recommended poppler-utils fio)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: accept the tools if they are on PATH, say what is needed otherwise.
  if command -v jupyter >/dev/null 2>&1 && jupyter nbconvert --version >/dev/null 2>&1 && { command -v chromium >/dev/null 2>&1 || [ -n "${CHROMIUM_PATH:-}" ]; } \
    && command -v pdflatex >/dev/null 2>&1 && command -v pdffonts >/dev/null 2>&1 && command -v fio >/dev/null 2>&1; then
    exit 0
  fi
  echo "ensure-system-packages: need jupyter nbconvert (with nbclient and ipykernel), chromium (or CHROMIUM_PATH), pdflatex (with booktabs), pdffonts (poppler) and fio" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do installed "$package" || missing+=("$package"); done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "ensure-system-packages: missing ${missing[*]}; as root: apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "ensure-system-packages: installing ${missing[*]}" >&2
apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
