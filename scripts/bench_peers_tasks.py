"""The Python side of scripts/bench-peers.py: the tasks Celery and RQ workers run, the Celery
application, and the enqueuers and RQ worker start-up it launches (with the venv's Python).

    python bench_peers_tasks.py enqueue celery|rq LISTING   # one task per JSON line of LISTING
    python bench_peers_tasks.py rq-worker                   # an RQ worker with Pillow preloaded

Redis comes from $PEERS_REDIS_URL (redis://host:port, no database). Celery's broker is database 0
and its result backend database 1, so the benchmark counts finished tasks with `DBSIZE` there; RQ
uses database 0 and counts `ZCARD rq:finished:default`.

Each thumbnail task does what a Pillow user writes: `draft` (JPEG shrink-on-load to the smallest
DCT scale still covering the box), `thumbnail` (Pillow's default filter and reducing gap) and a
plain `save` as WebP quality 80: no colour management, no temporary file, no fsync.
"""

import json
import os
import sys
import time

from PIL import Image

REDIS = os.environ.get("PEERS_REDIS_URL", "redis://127.0.0.1:6379")
QUEUE = "default"


def thumbnail(source, box, out):
    """Fits `source` into a `box`×`box` square and writes it to `out` as WebP q80."""
    with Image.open(source) as image:
        image.draft("RGB", (box, box))
        image.thumbnail((box, box))
        image.save(out, "WEBP", quality=80)
    return out


def trivial(number):
    """A job with no work, so what is timed is the queue's round trip."""
    return number


def celery_app():
    """The Celery application with the settings the issue names: acknowledge after the task runs
    (`acks_late`), take one message at a time (`prefetch_multiplier=1`), results in Redis."""
    from celery import Celery
    from celery.signals import worker_ready

    app = Celery("bench_peers_tasks", broker=REDIS + "/0", backend=REDIS + "/1")
    app.conf.update(
        task_acks_late=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    app.task(name="thumbnail")(thumbnail)
    app.task(name="trivial")(trivial)

    @worker_ready.connect(weak=False)
    def announce(**_):
        # The benchmark starts timing only once every worker has said it is ready.
        ready = os.environ.get("PEERS_READY_DIR")
        if ready:
            open(os.path.join(ready, f"celery-{os.getpid()}"), "w").close()

    return app


# `celery -A bench_peers_tasks worker` looks for `app` here.
# (Only in Celery's processes: RQ's need not import Celery.)
app = celery_app() if os.environ.get("PEERS_SYSTEM") == "celery" else None


def tasks(listing):
    """(kind, arguments) per line of the listing the benchmark wrote."""
    with open(listing) as f:
        for line in f:
            job = json.loads(line)
            if job["kind"] == "thumbnail":
                yield "thumbnail", (job["source"], job["box"], job["out"])
            else:
                yield "trivial", (job["number"],)


def enqueue_celery(listing):
    """One `apply_async` per task over one producer connection (what `group` does inside):
    Celery's Redis transport sends each message with its own `LPUSH`."""
    celery = app or celery_app()
    jobs = list(tasks(listing))
    with celery.producer_or_acquire() as producer:
        print(f"start {time.time()}", flush=True)
        for kind, arguments in jobs:
            celery.tasks[kind].apply_async(arguments, producer=producer)


def enqueue_rq(listing):
    """`Queue.enqueue_many` in one pipeline: RQ's bulk path."""
    from redis import Redis
    from rq import Queue

    queue = Queue(QUEUE, connection=Redis.from_url(REDIS + "/0"))
    # By dotted name, so the worker imports this module (not `__main__`).
    data = [Queue.prepare_data(f"bench_peers_tasks.{kind}", arguments) for kind, arguments in tasks(listing)]
    print(f"start {time.time()}", flush=True)
    queue.enqueue_many(data)


def rq_worker():
    """`rq worker default` with this module (and so Pillow) imported before it forks a work horse
    per job, as RQ's performance notes advise; otherwise each job would import Pillow again."""
    from redis import Redis
    from rq import Worker

    import bench_peers_tasks  # noqa: F401 (the module the jobs name, imported once before any fork)

    Worker([QUEUE], connection=Redis.from_url(REDIS + "/0"), log_job_description=False).work(logging_level="WARNING")


if __name__ == "__main__":
    if sys.argv[1:2] == ["enqueue"] and len(sys.argv) == 4:
        {"celery": enqueue_celery, "rq": enqueue_rq}[sys.argv[2]](sys.argv[3])
    elif sys.argv[1:] == ["rq-worker"]:
        rq_worker()
    else:
        sys.exit(__doc__)
