#!/usr/bin/env bash
# Download and unpack the upstream sources of FPGen's library benchmarks
# (Meschach 1.2b, GSL 2.7.1) from Debian's archive (bookworm's orig
# tarballs, unpatched upstream code) into target/bench/upstream/.
#
#   bash bench/error/upstream/fetch.sh            # idempotent
#
# Result:
#   target/bench/upstream/meschach-1.2b/   (Meschach 1.2b, upstream tree)
#   target/bench/upstream/gsl/             (GSL 2.7.1, the +dfsg orig tree)
# The tarballs are kept in target/bench/upstream/dl/ and checked against the
# SHA-256 recorded below (the Checksums-Sha256 of bookworm's source
# packages gsl 2.7.1+dfsg-5+deb12u1 and meschach 1.2b-17).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
DEST="${FPSYM_UPSTREAM_DIR:-$ROOT/target/bench/upstream}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# name | pool path | sha256 | directory the tarball unpacks to
SOURCES=(
  "meschach_1.2b.orig.tar.gz|pool/main/m/meschach|2b153bfdd619d84ad7df15ab7cab12a4655f3f61473ee3fe948d6c4e5b55a050|meschach-1.2b"
  "gsl_2.7.1+dfsg.orig.tar.gz|pool/main/g/gsl|e560d6b9c6e254e46769bbb03583c00ecafbdd51b062c55db23b3b9612868567|gsl"
)

mkdir -p "$DEST/dl"
for entry in "${SOURCES[@]}"; do
  IFS='|' read -r file pool sum dir <<<"$entry"
  tarball="$DEST/dl/$file"
  stamp="$DEST/$dir/.fetched-$sum"
  if [[ -f "$stamp" ]]; then
    echo "up to date: $DEST/$dir"
    continue
  fi
  if [[ ! -f "$tarball" ]] || ! echo "$sum  $tarball" | sha256sum -c --status; then
    echo "downloading $MIRROR/$pool/$file"
    curl -fsSL --retry 3 -m 600 -o "$tarball.part" "$MIRROR/$pool/$file"
    mv "$tarball.part" "$tarball"
  fi
  if ! echo "$sum  $tarball" | sha256sum -c --status; then
    echo "checksum mismatch for $tarball (expected $sum)" >&2
    rm -f "$tarball"
    exit 1
  fi
  rm -rf "${DEST:?}/$dir"
  tar -xzf "$tarball" -C "$DEST"
  [[ -d "$DEST/$dir" ]] || { echo "$file did not unpack to $dir" >&2; exit 1; }
  touch "$stamp"
  echo "unpacked: $DEST/$dir"
done
