#!/usr/bin/env bash
# Makes sure a Docker engine responds on this machine (Debian, no systemd, run as root): installs
# docker.io, busybox-static, git and the CA bundle (what the sandbox image is built from) when
# missing, starts dockerd when no engine responds, waits until it does. Idempotent.
# dockerd's log and pid go to $STATE_DIR (default /tmp/agent-console-docker).
set -euo pipefail
STATE_DIR=${STATE_DIR:-/tmp/agent-console-docker}
SOCK=/var/run/docker.sock
# node, not curl: a fresh Debian may have no curl, and npm needs node anyway
responds() {
  node -e 'require("http").get({ socketPath: process.argv[1], path: "/_ping", timeout: 2000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1)).on("timeout", () => process.exit(1))' "$SOCK"
}

missing=()
for package in docker.io busybox-static git ca-certificates; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ] && responds; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then echo "no Docker engine responds on $SOCK (or ${missing[*]} missing); setting one up needs root" >&2; exit 1; fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "--- installing ${missing[*]}"
  # no init system: package scripts must not try to start services
  [ -x /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get -q -o DPkg::Lock::Timeout=600 update
  apt-get -q -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
fi
if responds; then exit 0; fi

echo "--- starting dockerd"
mkdir -p "$STATE_DIR"
# a session of its own: it outlives the shell (and process group) that started it
# Without the caller's other open files: a daemon holding a caller's `flock` would hold it forever.
(
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
  done
  exec setsid nohup /usr/sbin/dockerd --host "unix://$SOCK" >"$STATE_DIR/dockerd.log" 2>&1 </dev/null
) &
echo $! >"$STATE_DIR/dockerd.pid"
for _ in $(seq 1 120); do
  if responds; then exit 0; fi
  sleep 0.5
done
echo "dockerd did not respond within 60 s; its log:" >&2
tail -30 "$STATE_DIR/dockerd.log" >&2
exit 1
