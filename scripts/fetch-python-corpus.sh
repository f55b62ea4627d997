#!/usr/bin/env bash
# Python source to train the code models on (scripts/train-code-words.ts,
# scripts/train-code-translation.ts; docs/transform.md, "Code words"): every python3-* package of
# the Debian archive apt points at, downloaded as a .deb (never installed, so nothing on the
# machine changes and no two packages conflict) with only its .py files extracted under
# $DIR/root. scripts/lib/code-pairs.ts reads $DIR/root/usr by default when it exists.
#
# A developer's step before training, not the product's: nothing downloads at run time, and the
# trained weights are committed. About 1.4 GB of packages (4,252 in bookworm), 2.7 GB of source,
# a few minutes.
#
#   bash scripts/fetch-python-corpus.sh [DIR]        (default /var/tmp/engram-python)
set -euo pipefail
DIR=${1:-/var/tmp/engram-python}
mkdir -p "$DIR/debs" "$DIR/root"
cd "$DIR/debs"
apt-cache pkgnames python3- | sort > "$DIR/packages.txt"
# A name with no .deb of its own (a virtual package) fails alone; the rest download.
xargs -n 100 -P 4 apt-get download < "$DIR/packages.txt" > "$DIR/download.log" 2>&1 || true
ls ./*.deb | xargs -P 4 -I{} sh -c 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards "*.py" 2>/dev/null || true' _ {} "$DIR/root"
echo "$(ls ./*.deb | wc -l) packages, $(find "$DIR/root" -name '*.py' | wc -l) Python files under $DIR/root"
