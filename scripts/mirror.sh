# Sourced by the setup scripts. debian_mirror prints the Debian mirror the
# system already uses: the first URIs: line of its own Debian sources
# (deb822), else the first deb line of sources.list. No script names a host.
debian_mirror() {
  local f=/etc/apt/sources.list.d/debian.sources
  if [ -f "$f" ]; then
    awk '/^URIs:/ { print $2; exit }' "$f"
  elif [ -f /etc/apt/sources.list ]; then
    awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list
  fi
}
