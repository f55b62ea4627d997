#!/usr/bin/env bash
# Install the pgvector extension for the running PostgreSQL server, then verify it.
#
# Debian bookworm ships no pgvector package, so we build it from Debian's own source
# package (suite "trixie"), fetched through a PRIVATE apt configuration: the system's
# apt sources and lists are never modified. See docs: ARCHITECTURE.md section 6.
#
# Idempotent: if the extension files are already present for the server's major
# version, it only runs the verification query.
#
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PGDATABASE (test),
#              TMPDIR (/tmp; work dir is $TMPDIR/engram-pgvector),
#              PGVECTOR_SUITE (trixie), PGVECTOR_FORCE=1 to rebuild even if installed.
set -euo pipefail

export PGHOST="${PGHOST:-127.0.0.1}"
export PGPORT="${PGPORT:-5432}"
export PGUSER="${PGUSER:-postgres}"
export PGDATABASE="${PGDATABASE:-test}"
export DEBIAN_FRONTEND=noninteractive

SUITE="${PGVECTOR_SUITE:-trixie}"
WORK="${TMPDIR:-/tmp}/engram-pgvector"

log() { printf '[install-pgvector] %s\n' "$*"; }
die() { printf '[install-pgvector] ERROR: %s\n' "$*" >&2; exit 1; }

STEP="start"
trap 'rc=$?; if [ "$rc" -ne 0 ]; then printf "[install-pgvector] FAILED during: %s (exit %s)\n" "$STEP" "$rc" >&2; fi' EXIT

psql_q() { PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# --- 1. PostgreSQL major version ---------------------------------------------------
STEP="detecting PostgreSQL major version"
MAJOR=""
if command -v psql >/dev/null 2>&1; then
  num="$(psql_q -tA -c 'show server_version_num' 2>/dev/null || true)"
  num="${num//[[:space:]]/}"
  if [[ "$num" =~ ^[0-9]+$ ]]; then MAJOR=$((num / 10000)); fi
fi
if [ -z "$MAJOR" ] && [ -d /etc/postgresql ]; then
  MAJOR="$(ls /etc/postgresql | grep -E '^[0-9]+$' | sort -n | tail -n1 || true)"
fi
if [ -z "$MAJOR" ] && command -v pg_config >/dev/null 2>&1; then
  MAJOR="$(pg_config --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')"
fi
[ -n "$MAJOR" ] || die "could not determine the PostgreSQL major version (server at $PGHOST:$PGPORT unreachable, no /etc/postgresql, no pg_config)"
log "PostgreSQL major version: $MAJOR"

PG_CONFIG="/usr/lib/postgresql/$MAJOR/bin/pg_config"
if [ -x "$PG_CONFIG" ]; then
  SHAREDIR="$("$PG_CONFIG" --sharedir)"
  PKGLIBDIR="$("$PG_CONFIG" --pkglibdir)"
else
  SHAREDIR="/usr/share/postgresql/$MAJOR"
  PKGLIBDIR="/usr/lib/postgresql/$MAJOR/lib"
fi

installed() { [ "${PGVECTOR_FORCE:-0}" != 1 ] && [ -f "$SHAREDIR/extension/vector.control" ] && [ -f "$PKGLIBDIR/vector.so" ]; }

# --- 2./3. Build from Debian's source package if needed ----------------------------
# Archive URI of the system's main Debian suite, read from the system's apt sources.
archive_uri() {
  local codename uri=""
  codename="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")"
  # deb822 *.sources: stanza whose Suites contains the release codename itself.
  shopt -s nullglob
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    uri="$(awk -v cn="$codename" '
      function flush() { if (!done && types ~ /(^| )deb( |$)/ && (cn == "" || (" " suites " ") ~ (" " cn " ")) && uris != "") { split(uris, u, " "); print u[1]; done = 1 } types = suites = uris = "" }
      /^[[:space:]]*#/ { next }
      /^[[:space:]]*$/ { flush(); next }
      tolower($1) == "types:"  { $1 = ""; types  = $0 }
      tolower($1) == "suites:" { $1 = ""; suites = $0 }
      tolower($1) == "uris:"   { $1 = ""; uris   = $0 }
      END { flush() }' "$f")"
    [ -n "$uri" ] && break
  done
  # One-line format: /etc/apt/sources.list and sources.list.d/*.list
  if [ -z "$uri" ]; then
    local lists=()
    [ -f /etc/apt/sources.list ] && lists+=(/etc/apt/sources.list)
    lists+=(/etc/apt/sources.list.d/*.list)
    if [ "${#lists[@]}" -gt 0 ]; then
      uri="$(cat "${lists[@]}" | sed -E 's/\[[^]]*\]//' | awk -v cn="$codename" '
        $1 == "deb" && (cn == "" || $3 == cn) { print $2; exit }')"
    fi
  fi
  shopt -u nullglob
  printf '%s' "${uri%/}"
}

apt_install() {
  # System apt; refresh the system lists only if a first attempt fails.
  if ! apt-get install -y -q "$@"; then
    log "apt-get install $* failed; running apt-get update and retrying"
    apt-get update -q
    apt-get install -y -q "$@"
  fi
}

if installed; then
  log "pgvector already installed ($SHAREDIR/extension/vector.control)"
else
  [ "$(id -u)" -eq 0 ] || die "building pgvector needs root (apt-get install, make install)"
  mkdir -p "$WORK"
  chmod 755 "$WORK"
  exec 9>"$WORK/.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
  if installed; then
    log "pgvector already installed (by a concurrent run)"
  else
    START=$SECONDS

    STEP="reading the archive URI from the system apt sources"
    URI="$(archive_uri)"
    [ -n "$URI" ] || die "no Debian archive URI found in /etc/apt/sources.list.d/*.sources or sources.list"
    log "archive URI (from system apt config): $URI"

    STEP="installing build tools"
    need=()
    command -v dpkg-source >/dev/null 2>&1 || need+=(dpkg-dev)
    command -v make >/dev/null 2>&1 || need+=(make)
    command -v gcc >/dev/null 2>&1 || need+=(gcc)
    dpkg -s "postgresql-server-dev-$MAJOR" >/dev/null 2>&1 || need+=("postgresql-server-dev-$MAJOR")
    if [ "${#need[@]}" -gt 0 ]; then
      log "installing: ${need[*]}"
      apt_install "${need[@]}"
    fi
    [ -x "$PG_CONFIG" ] || die "$PG_CONFIG missing after installing postgresql-server-dev-$MAJOR"

    STEP="updating the private apt lists ($SUITE source index)"
    rm -rf "$WORK/lists" "$WORK/src"
    mkdir -p "$WORK/lists/partial" "$WORK/src"
    # Let apt's unprivileged download user write the source files (no sandbox warning).
    if id _apt >/dev/null 2>&1; then chown _apt "$WORK/src"; fi
    echo "deb-src $URI $SUITE main" > "$WORK/sources.list"
    APT_OPTS=(
      -o "Dir::Etc::SourceList=$WORK/sources.list"
      -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::State::Lists=$WORK/lists"
      -o "Dir::Cache::pkgcache="
      -o "Dir::Cache::srcpkgcache="
    )
    log "apt-get update (private config: $WORK/sources.list)"
    apt-get "${APT_OPTS[@]}" update -q

    STEP="downloading the pgvector source package"
    log "apt-get source --download-only pgvector"
    (cd "$WORK/src" && apt-get "${APT_OPTS[@]}" source --download-only -q pgvector)
    shopt -s nullglob
    tarballs=("$WORK"/src/pgvector_*.orig.tar.*)
    shopt -u nullglob
    [ "${#tarballs[@]}" -eq 1 ] || die "expected one pgvector_*.orig.tar.* in $WORK/src, found ${#tarballs[@]}"
    log "source: $(basename "${tarballs[0]}")"

    STEP="building pgvector"
    mkdir -p "$WORK/src/build"
    tar -xf "${tarballs[0]}" -C "$WORK/src/build"
    srcdir="$(dirname "$(find "$WORK/src/build" -maxdepth 2 -name Makefile -print -quit)")"
    [ -f "$srcdir/vector.control" ] || die "unpacked source has no vector.control ($srcdir)"
    # OPTFLAGS="" (as Debian builds it): no -march=native, so the .so is portable.
    log "make (PG_CONFIG=$PG_CONFIG) in $srcdir"
    make -C "$srcdir" -s -j"$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$PG_CONFIG" OPTFLAGS=""
    STEP="installing pgvector (make install)"
    make -C "$srcdir" -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install
    PGVECTOR_FORCE=0 installed || die "make install finished but vector.control / vector.so not found for PostgreSQL $MAJOR"
    log "pgvector built and installed in $((SECONDS - START)) s"
  fi
fi

# --- 4. Verify ----------------------------------------------------------------------
STEP="verifying in database $PGDATABASE on $PGHOST:$PGPORT as $PGUSER"
psql_q -tA -c "CREATE EXTENSION IF NOT EXISTS vector" -c "SELECT '[1,2]'::vector <=> '[1,3]'::vector" >/dev/null
ver="$(psql_q -tA -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")"
avail="$(psql_q -tA -c "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")"
log "verified: extension vector $ver in $PGDATABASE (available: $avail)"
STEP="done"
