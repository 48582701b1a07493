#!/usr/bin/env bash
# A cluster of N separate machines emulated on one Linux machine with namespaces, and Open
# MPI launched across it (docs/cluster-emulation.md says what each part stands for).
#
#   cluster.sh run [--nodes N] [--share DIR]... -- COMMAND...
#       makes the cluster, runs COMMAND on this machine with CHESSHPC_CLUSTER set to the
#       cluster's folder, removes everything it made (also after a failure or a signal)
#       and exits with COMMAND's exit code
#   cluster.sh up [--nodes N] [--share DIR]...   makes the cluster, prints its folder
#   cluster.sh down CLUSTER                      removes everything up made
#   cluster.sh mpirun CLUSTER ARGS...            mpirun from the login node over the nodes
#   cluster.sh exec CLUSTER NODE COMMAND...      COMMAND inside NODE (also the rsh agent)
#   cluster.sh kill CLUSTER NODE                 kill -9 of every process of NODE
#   cluster.sh restart CLUSTER NODE              NODE booted again, its disk kept
#   cluster.sh link CLUSTER NODE up|down         NODE's network cable plugged or pulled
#   cluster.sh nodes CLUSTER                     one line per node: name, address, pid
#   cluster.sh net CLUSTER                       round trip and bandwidth between c0 and c1
#
# Node cK (K = 0 .. N-1) is a network namespace with one interface, eth0, a veth pair whose
# other end is a port of a bridge in a namespace of its own (the switch), an address of a
# private /24 that no route of this machine's reaches, and, inside it, a process that holds
# its own mount, UTS and PID namespaces: host name cK, its own /tmp (a folder of the
# cluster's folder: the node's disk), its working folder /tmp/work, and an /etc/hosts that
# names every node. The directories given with --share (the chesshpc binary's folder, as a
# cluster's shared software tree) are seen read-only at the same path on every node. mpirun
# runs on a login node (a network namespace on the switch, this machine's files) that runs
# no ranks: it starts Open MPI's daemon on each node through the rsh agent, which enters
# the node's namespaces with nsenter. Killing a node is kill -9 of its PID namespace's
# first process: the kernel then kills every process of the node.
#
# Exit codes: 0 ok, 2 bad usage, 77 namespaces cannot be made here (the one line says why),
# 1 anything else that failed; run and exec exit with their command's code.
set -euo pipefail

script=$(readlink -f "${BASH_SOURCE[0]}")
prog=cluster.sh

die() {
  echo "$prog: $*" >&2
  exit 1
}

usage() {
  echo "$prog: $*" >&2
  echo "usage: $prog run|up [--nodes N] [--share DIR]... [-- COMMAND...] | down|mpirun|exec|kill|restart|link|nodes|net CLUSTER ..." >&2
  exit 2
}

# Open MPI's options for this cluster: TCP only, on the nodes' eth0, and the TCP
# keepalive of the daemons' out-of-band channel shortened from 300 + 9 x 20 s to
# 2 + 3 x 1 s, so that a node whose link went down is declared lost within seconds.
# --quiet: Open MPI's own notices (a daemon lost, a rank's exit code) are left out, so that
# chesshpc's line on a lost rank is the one a user reads; mpirun's exit code stays its own.
mpi_options() {
  local dir=$1
  printf '%s\n' --hostfile "$dir/hostfile" --wdir /tmp/work --quiet \
    --mca plm_rsh_agent "$dir/bin/rsh" --mca plm_rsh_no_tree_spawn 1 \
    --mca btl tcp,self --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 \
    --mca oob_tcp_keepalive_time 2 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 3
}

# Whether this machine lets us make network, mount, UTS and PID namespaces and veth links.
check_privileges() {
  local err
  if ! err=$(unshare --net --mount --uts --pid --fork true 2>&1); then
    echo "$prog: cannot make namespaces here (needs root, or CAP_SYS_ADMIN and CAP_NET_ADMIN): ${err:-unshare failed}" >&2
    exit 77
  fi
  command -v ip >/dev/null && command -v nsenter >/dev/null \
    || { echo "$prog: cannot make namespaces here: ip (iproute2) or nsenter (util-linux) missing" >&2; exit 77; }
}

# A private 10.X.Y.0/24 that no address or route of this machine covers (the nodes'
# addresses live only in the cluster's namespaces, but a clash would still confuse anyone
# reading the output).
pick_subnet() {
  { ip -4 route show table all; ip -4 addr show; } 2>/dev/null | python3 -c '
import ipaddress, random, re, sys
used = [ipaddress.ip_network(m, strict=False) for m in re.findall(r"\b(\d+\.\d+\.\d+\.\d+(?:/\d+)?)", sys.stdin.read())]
used = [n for n in used if n.prefixlen > 0]  # the default route covers everything
for _ in range(256):
    net = ipaddress.ip_network(f"10.{random.randrange(20, 220)}.{random.randrange(1, 255)}.0/24")
    if not any(net.overlaps(n) for n in used):
        print(str(net.network_address).rsplit(".", 1)[0])
        sys.exit(0)
sys.exit(1)' || die "no free private /24 found under 10.0.0.0/8"
}

state() { cat "$1/$2"; }

node_pid() {
  local dir=$1 node=$2
  [[ -f $dir/$node/pid ]] || usage "no node '$node' in $dir"
  cat "$dir/$node/pid"
}

# Starts the process that holds node $2's mount, UTS and PID namespaces, inside its network
# namespace; writes its pid (the PID namespace's first process) to $dir/$node/pid.
boot_node() {
  local dir=$1 node=$2 ns holder child share rel
  ns="$(state "$dir" prefix)-$node"
  local setup="set -e
mount --make-rprivate /
mount --bind '$dir/hosts' /etc/hosts"
  while read -r share; do
    [[ -n $share ]] || continue
    rel=${share#/tmp/}
    mkdir -p "$dir/$node/tmp/$rel"
    setup+="
mount --bind '$share' '$dir/$node/tmp/$rel'
mount -o remount,bind,ro '$dir/$node/tmp/$rel'"
  done < <(grep '^/tmp/' "$dir/shares" || true)
  while read -r share; do
    [[ -n $share ]] || continue
    setup+="
mount --bind '$share' '$share'
mount -o remount,bind,ro '$share'"
  done < <(grep -v '^/tmp/' "$dir/shares" || true)
  setup+="
mount --rbind '$dir/$node/tmp' /tmp
mkdir -p /tmp/work
cd /tmp/work
hostname $node
exec sleep infinity"
  mkdir -p "$dir/$node/tmp"
  ip netns exec "$ns" unshare --mount --uts --pid --fork --mount-proc sh -c "$setup" </dev/null >"$dir/$node/boot.log" 2>&1 &
  holder=$!
  for _ in $(seq 200); do
    child=$(cat "/proc/$holder/task/$holder/children" 2>/dev/null || true)
    child=${child%% *}
    if [[ -n $child ]] && [[ $(readlink "/proc/$child/ns/uts" 2>/dev/null) != "$(readlink /proc/$$/ns/uts)" ]] \
      && [[ $(cat "/proc/$child/comm" 2>/dev/null) == sleep ]]; then
      echo "$child" >"$dir/$node/pid"
      return
    fi
    kill -0 "$holder" 2>/dev/null || die "node $node did not boot: $(cat "$dir/$node/boot.log")"
    sleep 0.05
  done
  die "node $node did not boot within 10 s: $(cat "$dir/$node/boot.log")"
}

cmd_up() {
  local nodes=3 shares=()
  while (($#)); do
    case $1 in
      --nodes) [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || usage "--nodes takes 1 to 99"; nodes=$2; shift 2 ;;
      --share) [[ -d ${2:-} ]] || usage "--share takes a folder"; shares+=("$(readlink -f "$2")"); shift 2 ;;
      *) usage "unknown option '$1'" ;;
    esac
  done
  check_privileges
  local dir prefix subnet
  dir=$(mktemp -d "${TMPDIR:-/tmp}/chesshpc-cluster.XXXXXX")
  prefix="chc-${dir##*.}"
  echo "$prefix" >"$dir/prefix"
  : >"$dir/netns"
  # From here on a failure or a signal removes what was made.
  trap 'cmd_down "$dir" >/dev/null 2>&1 || true' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # The agent's folder is shared too: mpirun hands its own options, the agent's path among
  # them, to every node's daemon, which checks that the path exists.
  mkdir "$dir/bin"
  printf '%s\n' "$dir/bin" "${shares[@]}" >"$dir/shares"
  subnet=$(pick_subnet)
  echo "$subnet" >"$dir/subnet"
  local sw="$prefix-switch" login="$prefix-login"
  ip netns add "$sw" && echo "$sw" >>"$dir/netns"
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
  ip -n "$sw" link set lo up
  {
    echo "127.0.0.1 localhost"
    echo "$subnet.254 login"
    for ((k = 0; k < nodes; k++)); do echo "$subnet.$((k + 1)) c$k"; done
  } >"$dir/hosts"
  : >"$dir/hostfile"
  local names=(login) k
  for ((k = 0; k < nodes; k++)); do names+=("c$k"); done
  for node in "${names[@]}"; do
    local ns="$prefix-$node" addr
    if [[ $node == login ]]; then addr=$subnet.254; else addr=$subnet.$((${node#c} + 1)); fi
    ip netns add "$ns" && echo "$ns" >>"$dir/netns"
    ip -n "$ns" link add eth0 type veth peer name "$node" netns "$sw"
    ip -n "$sw" link set "$node" master br0 up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    [[ $node == login ]] && continue
    mkdir -p "$dir/$node"
    echo "$addr" >"$dir/$node/address"
    echo "$node slots=1" >>"$dir/hostfile"
    boot_node "$dir" "$node"
  done
  cat >"$dir/bin/rsh" <<EOF
#!/bin/sh
# Open MPI's rsh agent for this cluster: AGENT NODE COMMAND...
exec "$script" exec "$dir" "\$@"
EOF
  chmod +x "$dir/bin/rsh"
  trap - EXIT INT TERM
  echo "$dir"
}

cmd_down() {
  local dir=${1:?}
  [[ -f $dir/prefix ]] || usage "'$dir' is not a cluster made by $prog up"
  local pidfile pid ns
  for pidfile in "$dir"/c*/pid; do
    [[ -f $pidfile ]] || continue
    pid=$(cat "$pidfile")
    kill -9 "$pid" 2>/dev/null || true
  done
  for pidfile in "$dir"/c*/pid; do
    [[ -f $pidfile ]] || continue
    pid=$(cat "$pidfile")
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  done
  # Processes still in a namespace of the cluster (mpirun on the login node, say).
  while read -r ns; do
    [[ -n $ns ]] || continue
    for pid in $(ip netns pids "$ns" 2>/dev/null || true); do kill -9 "$pid" 2>/dev/null || true; done
  done <"$dir/netns"
  while read -r ns; do
    [[ -n $ns ]] || continue
    for _ in $(seq 50); do [[ -z $(ip netns pids "$ns" 2>/dev/null) ]] && break; sleep 0.05; done
    ip netns del "$ns" 2>/dev/null || true
  done <"$dir/netns"
  rm -rf "$dir"
}

cmd_exec() {
  local dir=${1:?} node=${2:?} pid
  shift 2
  (($#)) || usage "exec: no command"
  if [[ $node == login ]]; then
    exec ip netns exec "$(state "$dir" prefix)-login" "$@"
  fi
  pid=$(node_pid "$dir" "$node")
  # Open MPI hands the daemon's command line to the agent as words for a remote shell.
  if (($# > 1)); then
    exec nsenter --target "$pid" --net --mount --uts --pid --wd -- sh -c "$*"
  fi
  exec nsenter --target "$pid" --net --mount --uts --pid --wd -- sh -c "$1"
}

cmd_mpirun() {
  local dir=${1:?}
  shift
  local opts
  mapfile -t opts < <(mpi_options "$dir")
  exec ip netns exec "$(state "$dir" prefix)-login" mpirun "${opts[@]}" "$@"
}

cmd_kill() {
  local dir=${1:?} node=${2:?} pid
  pid=$(node_pid "$dir" "$node")
  kill -9 "$pid"
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.05; done
  die "node $node still there 10 s after kill -9"
}

cmd_restart() {
  local dir=${1:?} node=${2:?} pid
  pid=$(node_pid "$dir" "$node")
  kill -0 "$pid" 2>/dev/null && cmd_kill "$dir" "$node"
  boot_node "$dir" "$node"
}

cmd_link() {
  local dir=${1:?} node=${2:?} updown=${3:-}
  [[ $updown == up || $updown == down ]] || usage "link: up or down"
  node_pid "$dir" "$node" >/dev/null
  ip -n "$(state "$dir" prefix)-switch" link set "$node" "$updown"
}

cmd_nodes() {
  local dir=${1:?} d
  for d in "$dir"/c*/; do
    d=${d%/}
    echo "${d##*/} $(cat "$d/address") $(cat "$d/pid")"
  done
}

# Round trip (median of 200 one-byte pings) and bandwidth (64 MiB one way) over TCP
# between c0 and c1, measured with python3 on both ends.
cmd_net() {
  local dir=${1:?}
  local server='
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 5999)); s.listen(1); print("ready", flush=True)
c, _ = s.accept(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for _ in range(200):
    c.sendall(c.recv(1))
n = 0
while n < 64 << 20:
    b = c.recv(1 << 20)
    if not b: break
    n += len(b)
c.sendall(b"k")
'
  local client='
import socket, statistics, sys, time
c = socket.create_connection((sys.argv[1], 5999)); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
rtt = []
for _ in range(200):
    t = time.perf_counter(); c.sendall(b"x"); c.recv(1); rtt.append(time.perf_counter() - t)
block = bytes(1 << 20); t = time.perf_counter()
for _ in range(64):
    c.sendall(block)
c.recv(1); secs = time.perf_counter() - t
print(f"round trip {statistics.median(rtt) * 1e6:.0f} us (median of 200), bandwidth {64 * 1048576 / secs / 1e6:.0f} MB/s (64 MiB over TCP), c0 -> c1")
'
  local srv
  timeout 60 nsenter --target "$(node_pid "$dir" c1)" --net --mount --uts --pid -- python3 -c "$server" \
    >"$dir/net.log" 2>&1 </dev/null &
  srv=$!
  for _ in $(seq 100); do grep -q ready "$dir/net.log" 2>/dev/null && break; sleep 0.05; done
  timeout 60 nsenter --target "$(node_pid "$dir" c0)" --net --mount --uts --pid -- python3 -c "$client" \
    "$(cat "$dir/c1/address")" || { kill "$srv" 2>/dev/null; die "net: the measurement failed: $(cat "$dir/net.log")"; }
  wait "$srv"
}


cmd_run() {
  local up_args=()
  while (($#)) && [[ $1 != -- ]]; do up_args+=("$1"); shift; done
  (($#)) || usage "run: no -- COMMAND"
  shift
  (($#)) || usage "run: no command after --"
  local dir rc=0
  dir=$(cmd_up "${up_args[@]}") || exit $?
  trap 'cmd_down "$dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  echo "$prog: $(grep -c . "$dir/hostfile") nodes up ($(tr '\n' ' ' <"$dir/hostfile" | sed 's/ slots=1//g; s/ $//') on $(cat "$dir/subnet").0/24), cluster folder $dir" >&2
  CHESSHPC_CLUSTER=$dir "$@" || rc=$?
  exit "$rc"
}

(($#)) || usage "no command"
command=$1
shift
case $command in
  run) cmd_run "$@" ;;
  up) cmd_up "$@" ;;
  down) cmd_down "$@" ;;
  exec) cmd_exec "$@" ;;
  mpirun) cmd_mpirun "$@" ;;
  kill) cmd_kill "$@" ;;
  restart) cmd_restart "$@" ;;
  link) cmd_link "$@" ;;
  nodes) cmd_nodes "$@" ;;
  net) cmd_net "$@" ;;
  -h | --help) sed -n '2,/^set -euo/p' "$script" | sed '$d; s/^# \{0,1\}//' ; exit 0 ;;
  *) usage "unknown command '$command'" ;;
esac
