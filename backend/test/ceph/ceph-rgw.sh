#!/usr/bin/env bash
# A throwaway single-node Ceph cluster with a RADOS Gateway, for the S3 storage driver's tests:
# one ceph-mon and one ceph-osd (BlueStore on a sparse file) on 127.0.0.1, radosgw on a free
# port, and an S3 user whose keys are printed as environment for the tests. Signatures are
# checked (cephx inside the cluster, AWS SigV4 at the gateway), as on a real deployment.
#
#   backend/test/ceph/ceph-rgw.sh start    # starts it (or reuses a running one), prints `export S3_TEST_...`
#   backend/test/ceph/ceph-rgw.sh env      # prints the environment of the running one
#   backend/test/ceph/ceph-rgw.sh stop     # stops the daemons and removes the folder
#
# Needs Debian's ceph-mon, ceph-osd, radosgw and ceph-common (install-deps installs them).
# The cluster lives in CEPH_TEST_DIR (default /tmp/gangsheet-ceph), removed by stop; its logs in
# CEPH_TEST_DIR-logs, kept after stop for a failed run's reader and cleared by the next start.
set -euo pipefail

DIR="${CEPH_TEST_DIR:-/tmp/gangsheet-ceph}"
# bluestore keeps the objects in a sparse file; memstore (in memory) is the fallback to compare with
STORE="${CEPH_TEST_OBJECTSTORE:-bluestore}"
CONF="$DIR/ceph.conf"
LOGS="$DIR-logs"
PACKAGES=(ceph-mon ceph-osd radosgw ceph-common)

log() { echo "ceph-rgw: $*" >&2; }

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# A daemon of this cluster is running: its pid file names a live process started with our ceph.conf
# (a stale pid file from an earlier machine run may name someone else's process).
alive() {
  [ -f "$DIR/$1.pid" ] || return 1
  local pid; pid="$(cat "$DIR/$1.pid")"
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-c $CONF"
}

print_env() { cat "$DIR/env"; }

# An anonymous request answers with S3's XML (an empty bucket list): the gateway is up.
rgw_answers() {
  [ -f "$DIR/env" ] || return 1
  node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" \
    "$(sed -n 's/^export S3_TEST_ENDPOINT=//p' "$DIR/env")/"
}

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

stop() {
  local d pids=()
  for d in rgw osd mon; do
    if alive "$d"; then
      pids+=("$(cat "$DIR/$d.pid")")
      kill "${pids[-1]}" 2>/dev/null || true
    fi
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$DIR"
}

start() {
  if alive mon && alive osd && alive rgw && rgw_answers; then
    print_env
    return 0
  fi
  stop
  trap 'log "start failed; logs in $LOGS"; tail -n 20 "$LOGS/"*.log >&2' ERR
  local t0; t0=$(date +%s.%N)
  rm -rf "$LOGS"
  mkdir -p "$LOGS" "$DIR/run" "$DIR/mon" "$DIR/osd"
  local fsid mon_port rgw_port
  fsid=$(cat /proc/sys/kernel/random/uuid)
  mon_port=$(free_port)
  rgw_port=$(free_port)
  cat >"$CONF" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $DIR/keyring
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
log file = $LOGS/\$name.log
log to stderr = false
err to stderr = true
ms bind ipv6 = false
ms bind msgr1 = false
# one OSD: one replica, small placement groups, no autoscaler (no manager runs)
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon data avail warn = 2
mon data avail crit = 1
# a single monitor commits at once instead of batching proposals for a second (each pool the
# gateway creates is one osdmap change)
paxos propose interval = 0.01
paxos min wait = 0.001
# The daemons share the app's cores in tests and benchmarks: no in-memory debug logs gathered
# for a crash dump, and no CRCs on messages that never leave the loopback interface (BlueStore
# keeps its own checksums of what it stores). Signatures (cephx, SigV4) are still checked.
debug rgw = 0/0
debug osd = 0/0
debug bluestore = 0/0
debug bluefs = 0/0
debug rocksdb = 0/0
debug rados = 0/0
debug objecter = 0/0
ms crc data = false
ms crc header = false

[mon]
mon data = $DIR/mon
mon cluster log file = $LOGS/cluster.log

[osd]
osd data = $DIR/osd
osd objectstore = $STORE
memstore device bytes = 2147483648
bluestore block path = $DIR/osd-block.file
bluestore block create = true
# a sparse file: room for the benchmarks' sheets, taken on disk only as written
bluestore block size = 17179869184
bluestore block db create = false
bluestore block wal create = false
bluestore fsck on mkfs = false
bluestore fsck on mount = false
bdev enable discard = false
# keep the test cluster small in memory
osd memory target = 939524096
bluestore cache autotune = false
bluestore cache size = 134217728
osd op num shards = 2
osd op num threads per shard = 1

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw data = $DIR/rgw
rgw enable usage log = false
# deleted objects' space comes back within a minute (the default waits two hours), so
# benchmark runs that write and delete gigabytes do not fill the OSD
rgw gc obj min wait = 30
rgw gc processor period = 30
rgw dns name = 127.0.0.1
EOF

  # keys: the mon imports every entity of this keyring (the osd's included) when it is created
  local osd_uuid osd_key
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  osd_key=$(ceph-authtool --gen-print-key)
  ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$DIR/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  ceph-authtool "$DIR/keyring" --gen-key -n client.rgw --cap mon 'allow rw' --cap osd 'allow rwx' >/dev/null
  ceph-authtool "$DIR/keyring" -n osd.0 --add-key "$osd_key" --cap mon 'allow profile osd' --cap osd 'allow *' >/dev/null
  ceph-authtool --create-keyring "$DIR/osd/keyring" -n osd.0 --add-key "$osd_key" >/dev/null

  # the osd's store is created (offline) while the mon starts
  ceph-osd -c "$CONF" -i 0 --mkfs --no-mon-config --osd-uuid "$osd_uuid" --keyring "$DIR/osd/keyring" 2>>"$LOGS/setup.log" &
  local mkfs=$!

  # mon
  monmaptool --create --addv a "[v2:127.0.0.1:$mon_port]" --fsid "$fsid" "$DIR/monmap" >/dev/null
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/keyring" 2>>"$LOGS/setup.log"
  ceph-mon -c "$CONF" -i a --pid-file "$DIR/mon.pid" 2>>"$LOGS/setup.log"

  local t_mon; t_mon=$(date +%s.%N)
  # osd: registered as osd.0, then started once its store exists
  [ "$(ceph -c "$CONF" --connect-timeout 20 osd new "$osd_uuid" 0)" = 0 ]
  wait "$mkfs"
  ceph-osd -c "$CONF" -i 0 --keyring "$DIR/osd/keyring" --pid-file "$DIR/osd.pid" 2>>"$LOGS/setup.log"

  local t_osd; t_osd=$(date +%s.%N)
  # rgw (it creates its pools on first start)
  mkdir -p "$DIR/rgw"
  radosgw -c "$CONF" -n client.rgw --keyring "$DIR/keyring" --pid-file "$DIR/rgw.pid" 2>>"$LOGS/setup.log"

  local access secret
  access="GS$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr a-f A-F)"
  secret="$(head -c 30 /dev/urandom | base64 | tr -d '/+=\n')"
  radosgw-admin -c "$CONF" -n client.admin user create --uid=gangsheet-test --display-name="GangSheet tests" \
    --access-key="$access" --secret-key="$secret" >/dev/null 2>>"$LOGS/setup.log"

  cat >"$DIR/env" <<EOF
export S3_TEST_ENDPOINT=http://127.0.0.1:$rgw_port
export S3_TEST_REGION=us-east-1
export S3_TEST_ACCESS_KEY_ID=$access
export S3_TEST_SECRET_ACCESS_KEY=$secret
EOF
  for _ in $(seq 1 300); do rgw_answers && break; sleep 0.1; done
  if ! rgw_answers; then
    log "radosgw did not answer; logs in $LOGS"
    tail -n 30 "$LOGS/"*.log >&2 || true
    exit 1
  fi
  log "$(awk -v t0="$t0" -v m="$t_mon" -v o="$t_osd" -v e="$(date +%s.%N)" \
    'BEGIN { printf "started in %.1f s (mon %.1f s, osd %.1f s, radosgw and its pools %.1f s)", e - t0, m - t0, o - m, e - o }'); logs in $LOGS"
  print_env
}

case "${1:-}" in
  install-deps) install_deps ;;
  start) start ;;
  stop) stop ;;
  env) print_env ;;
  *) echo "usage: $0 install-deps|start|stop|env" >&2; exit 2 ;;
esac
