#!/usr/bin/env python3
"""The peer figure for `itemaudit bench log --store postgres://...`: the Python `eventsourcing`
library (PostgresApplicationRecorder, psycopg 3) appending and reading the same number of events
on the same PostgreSQL cluster, in a database of its own. Prints one JSON object.

  tools/bench/eventsourcing-peer.py --host /tmp/itemaudit-pg.X --user postgres --dbname scratch \
      --events 100000 --batch 1000 --concurrent-events 5000 --concurrency 64 --payload-bytes 120
"""
import argparse
import json
import os
import sys
import threading
import time
import uuid

try:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
except ImportError:
    print("eventsourcing-peer: error: eventsourcing[postgres] is not installed (run tools/setup)", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", default="5432")
    parser.add_argument("--user", default="postgres")
    parser.add_argument("--password", default=os.environ.get("PGPASSWORD", ""))
    parser.add_argument("--dbname", required=True)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--concurrent-events", type=int, default=5_000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--payload-bytes", type=int, default=120)
    args = parser.parse_args()

    datastore = PostgresDatastore(
        dbname=args.dbname, host=args.host, port=args.port, user=args.user, password=args.password,
        pool_size=args.concurrency, max_overflow=0, originator_id_type="text")
    recorder = PostgresApplicationRecorder(datastore)
    recorder.create_table()
    payload = bytes((i * 7) % 251 for i in range(args.payload_bytes))

    # Batched append: one stream per batch, `batch` events per insert_events call (one transaction).
    start = time.perf_counter()
    written = 0
    stream = 0
    while written < args.events:
        count = min(args.batch, args.events - written)
        stream += 1
        events = [StoredEvent(f"batch-{stream}", v + 1, "Noted", payload) for v in range(count)]
        recorder.insert_events(events)
        written += count
    batched_seconds = time.perf_counter() - start

    # Concurrent appenders: one event per transaction, `concurrency` threads.
    per_thread = max(1, args.concurrent_events // args.concurrency)

    def appender(index):
        for version in range(per_thread):
            recorder.insert_events([StoredEvent(f"device-{index}", version + 1, "Noted", payload)])

    threads = [threading.Thread(target=appender, args=(i,)) for i in range(args.concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    concurrent_seconds = time.perf_counter() - start
    concurrent_count = per_thread * args.concurrency

    # Replay: every event in notification (global) order, 10,000 a page.
    start = time.perf_counter()
    read = 0
    position = 1
    while True:
        page = recorder.select_notifications(position, 10_000)
        if not page:
            break
        read += len(page)
        position = page[-1].id + 1
    replay_seconds = time.perf_counter() - start
    datastore.close()

    print(json.dumps({
        "peer": "eventsourcing (Python) PostgresApplicationRecorder",
        "batched-append-events-per-s": round(args.events / batched_seconds),
        "concurrent-append-events-per-s": round(concurrent_count / concurrent_seconds),
        "concurrent-events": concurrent_count,
        "replay-events-per-s": round(read / replay_seconds),
        "events-read": read,
    }))


if __name__ == "__main__":
    main()
