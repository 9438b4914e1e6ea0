#!/bin/sh
# A throwaway PostgreSQL cluster for the tests and benchmarks: listening only on a Unix socket
# in DIR, run by an unprivileged user (`nobody` when started by root: initdb refuses root).
#
#   postgres-throwaway.sh start DIR    creates DIR/data if needed, starts the server, prints
#                                      the connection string (host=DIR user=modalwatch dbname=postgres),
#                                      and only that, on stdout; every message goes to stderr
#   postgres-throwaway.sh stop DIR     stops it (fast shutdown); MODE=immediate for a crash stop
#   postgres-throwaway.sh destroy DIR  stops it if running and removes DIR
#
# POSTGRES_BIN overrides the folder of initdb/pg_ctl (default: pg_config --bindir, else the
# newest /usr/lib/postgresql/*/bin). POSTGRES_OPTIONS adds server options (e.g. "-c fsync=off").
set -eu
command=${1:?usage: postgres-throwaway.sh start|stop|destroy DIR}
dir=${2:?usage: postgres-throwaway.sh start|stop|destroy DIR}

bin=${POSTGRES_BIN:-}
if [ -z "$bin" ]; then
    bin=$(pg_config --bindir 2>/dev/null || true)
    if [ ! -x "$bin/pg_ctl" ]; then
        bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    fi
fi
if [ ! -x "$bin/pg_ctl" ]; then
    echo "postgres-throwaway.sh: no PostgreSQL server binaries (install Debian's postgresql)" >&2
    exit 2
fi

# DIR made absolute: the server's commands run from / (below).
case "$dir" in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac

# As root: the server runs as nobody, which owns DIR, from / (the caller's working directory, a
# clone under /root for instance, may be one nobody cannot enter: initdb and pg_ctl warn, or fail).
as_user() {
    if [ "$(id -u)" = 0 ]; then
        (cd / && exec setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@")
    else
        "$@"
    fi
}

case "$command" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown nobody:nogroup "$dir"; fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_user "$bin/initdb" -D "$dir/data" -U modalwatch --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2
            exit 1
        }
    fi
    as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-k $dir -c listen_addresses= -c max_connections=50 ${POSTGRES_OPTIONS:-}" start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    echo "host=$dir user=modalwatch dbname=postgres"
    ;;
stop)
    as_user "$bin/pg_ctl" -D "$dir/data" -m "${MODE:-fast}" -w -t 30 stop >/dev/null
    ;;
destroy)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_user "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "postgres-throwaway.sh: unknown command $command (start, stop or destroy)" >&2
    exit 2
    ;;
esac
