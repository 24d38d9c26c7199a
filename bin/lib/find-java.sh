# Sourced by .ci/run and bin/geoparquet-archive: exports JAVA_HOME for a JDK >= 21.
# Order: $JAVA_HOME, then `java` on PATH, then the newest JDK in the system's JVM directories.
# Fails with a clear message (exit 3) when none is found.

GEOPARQUET_MIN_JAVA=21

java_major_version() {
  # Prints the feature version of the given java binary (17, 21, 25, ...) or nothing. Reads the JDK's release file
  # when it has one (starting a JVM only to ask costs a tenth of a second on every command), else asks java itself.
  local version release
  release="$(dirname "$(dirname "$(readlink -f "$1")")")/release"
  if [ -f "$release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)"/\1/p' "$release" | head -n 1)
  fi
  if [ -z "${version:-}" ]; then
    version=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  fi
  case "$version" in
    1.*) echo "${version#1.}" | cut -d. -f1 ;;
    *) echo "${version%%[.+-]*}" ;;
  esac
}

is_suitable_jdk() {
  # A JDK home qualifies when it has java and javac and java reports version >= GEOPARQUET_MIN_JAVA.
  local home=$1 major
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
  major=$(java_major_version "$home/bin/java")
  [ -n "$major" ] && [ "$major" -ge "$GEOPARQUET_MIN_JAVA" ] 2>/dev/null
}

find_java_home() {
  local candidate best="" best_major=0 major
  if [ -n "${JAVA_HOME:-}" ] && is_suitable_jdk "$JAVA_HOME"; then
    echo "$JAVA_HOME"; return 0
  fi
  if command -v java >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
    if is_suitable_jdk "$candidate"; then
      echo "$candidate"; return 0
    fi
  fi
  for candidate in /usr/lib/jvm/* /usr/java/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$candidate" ] || continue
    is_suitable_jdk "$candidate" || continue
    major=$(java_major_version "$candidate/bin/java")
    if [ "$major" -gt "$best_major" ]; then
      best=$candidate; best_major=$major
    fi
  done
  [ -n "$best" ] && echo "$best"
}

require_java_home() {
  local home
  home=$(find_java_home)
  if [ -z "$home" ]; then
    echo "error: no JDK >= $GEOPARQUET_MIN_JAVA found (checked JAVA_HOME='${JAVA_HOME:-}', 'java' on PATH, and /usr/lib/jvm, /usr/java, /opt/java). Install a JDK $GEOPARQUET_MIN_JAVA or newer, or set JAVA_HOME to one." >&2
    exit 3
  fi
  export JAVA_HOME="$home"
  export PATH="$JAVA_HOME/bin:$PATH"
}
