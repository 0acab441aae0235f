#!/usr/bin/env bash
# Makes sure a Docker engine answers on this machine (Debian, no systemd, run as root): installs
# docker.io and busybox-static when missing, starts dockerd when no engine answers, waits for it.
# Idempotent. dockerd's log and pid go to $STATE_DIR (default /tmp/agent-console-docker).
set -euo pipefail
STATE_DIR=${STATE_DIR:-/tmp/agent-console-docker}
SOCK=/var/run/docker.sock
answers() { curl -fsS --max-time 2 --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1; }

if answers; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then echo "no Docker engine answers on $SOCK; setting one up needs root" >&2; exit 1; fi

if ! command -v dockerd >/dev/null || [ ! -x /bin/busybox ]; then
  echo "--- installing docker.io and busybox-static"
  # no init system: package scripts must not try to start services
  [ -x /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get -q -o DPkg::Lock::Timeout=600 update
  apt-get -q -o DPkg::Lock::Timeout=600 install -y --no-install-recommends docker.io busybox-static
fi

echo "--- starting dockerd"
mkdir -p "$STATE_DIR"
nohup /usr/sbin/dockerd --host "unix://$SOCK" >"$STATE_DIR/dockerd.log" 2>&1 &
echo $! >"$STATE_DIR/dockerd.pid"
for _ in $(seq 1 120); do
  if answers; then exit 0; fi
  sleep 0.5
done
echo "dockerd did not answer within 60 s; its log:" >&2
tail -30 "$STATE_DIR/dockerd.log" >&2
exit 1
