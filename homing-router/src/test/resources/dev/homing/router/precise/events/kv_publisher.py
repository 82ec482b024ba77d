"""A vLLM KV-event publisher written with Debian's pyzmq and msgpack, nothing of Homing's.

Driven by PythonPublisherIT over stdin/stdout, one JSON object per line. It opens publishers as vLLM's
ZmqEventPublisher does (a PUB that binds or connects, a ROUTER for replay), and sends the batches it is told to, laid
out as vLLM lays them out: legacy tagged arrays or tagged maps, the batch as an array or a map, hashes as unsigned or
signed 64-bit integers or as 32-byte digests. The sequence numbers are the test's to choose, so it can leave gaps and
start again from 0. Publishers are XPUB sockets, which are PUB sockets on the wire but say when a subscription
arrives, so nothing is sent before the router listens.

Usage: kv_publisher.py SEED LIFETIME_SECONDS
"""
import json
import os
import random
import signal
import sys
import time

try:
    import msgpack
    import zmq
except ImportError as e:
    print(json.dumps({"error": "missing Python module %s: install the Debian packages python3-zmq python3-msgpack"
                               % e.name}), flush=True)
    sys.exit(3)

END_SEQ = b"\xff" * 8
BLOCK_SIZE = 16


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def bind(sock, endpoint):
    """Binds, waiting out a port the previous socket on it still holds (libzmq closes listeners asynchronously)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            sock.bind(endpoint)
            return
        except zmq.ZMQError as e:
            if e.errno != zmq.EADDRINUSE or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Publisher:
    def __init__(self, ctx, name, mode, endpoint, replay):
        self.ctx = ctx
        self.name = name
        self.mode = mode
        self.requested = endpoint
        self.want_replay = replay
        self.kept = []  # (seq, payload), as vLLM's replay deque
        self.replay_endpoint = None
        self.open()

    def open(self):
        self.pub = self.ctx.socket(zmq.XPUB)
        self.pub.setsockopt(zmq.LINGER, 0)
        self.pub.setsockopt(zmq.SNDHWM, 100000)
        if self.mode == "bind":
            bind(self.pub, self.requested)
            self.endpoint = self.pub.getsockopt_string(zmq.LAST_ENDPOINT)
            self.requested = self.endpoint  # a restart binds the same port again
        else:
            self.pub.connect(self.requested)
            self.endpoint = self.requested
        self.router = None
        if self.want_replay:
            self.router = self.ctx.socket(zmq.ROUTER)
            self.router.setsockopt(zmq.LINGER, 0)
            bind(self.router, self.replay_endpoint or "tcp://127.0.0.1:*")
            self.replay_endpoint = self.router.getsockopt_string(zmq.LAST_ENDPOINT)

    def close(self):
        self.pub.close(0)
        if self.router is not None:
            self.router.close(0)

    def restart(self):
        """A new engine: new sockets on the same endpoints, an empty replay buffer."""
        self.close()
        self.kept = []
        self.open()

    def await_subscriber(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.pub.poll(100, zmq.POLLIN):
                msg = self.pub.recv()
                if msg[:1] == b"\x01":
                    return msg[1:].decode("utf-8", "replace")
        raise RuntimeError("no subscription reached publisher %s within %ss" % (self.name, timeout))

    def serve_replay(self):
        frames = self.router.recv_multipart()
        if len(frames) != 3 or frames[1] != b"":
            return
        start = int.from_bytes(frames[2], "big")
        for seq, payload in self.kept:
            if seq >= start:
                self.router.send_multipart([frames[0], b"", seq.to_bytes(8, "big"), payload])
        self.router.send_multipart([frames[0], b"", END_SEQ, b""])
        emit({"replayed": self.name, "from": start})


class Hashes:
    """Each (prompt, block) gets one hash, in the form asked the first time it is used."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.by_block = {}

    def of(self, prompt, block, form):
        key = (prompt, block)
        if key not in self.by_block:
            if form == "u64":
                h = self.rng.randrange(1, 2 ** 63)
            elif form == "u64high":
                h = self.rng.randrange(2 ** 63, 2 ** 64)  # msgpack uint64, 'cf'
            elif form == "i64neg":
                h = -self.rng.randrange(1, 2 ** 63)  # vLLM <= 0.10.1 could send Python's negative hashes
            elif form == "bytes":
                h = self.rng.randbytes(32)  # VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=0
            else:
                raise ValueError("unknown hash form " + form)
            self.by_block[key] = h
        return self.by_block[key]


def stored(spec, prompts, hashes):
    prompt, (start, end) = spec["prompt"], spec["blocks"]
    form = spec.get("hash", "u64")
    block_hashes = [hashes.of(prompt, i, form) for i in range(start, end)]
    parent = hashes.by_block[(prompt, start - 1)] if start > 0 else None
    tokens = prompts[prompt][start * BLOCK_SIZE:end * BLOCK_SIZE]
    extra_keys = [None] * len(block_hashes)
    if spec["encoding"] == "array":
        # Every declared field, None included (msgspec does not omit defaults of array_like structs).
        e = ["BlockStored", block_hashes, parent, tokens, BLOCK_SIZE, None, "GPU", None, extra_keys, 0,
             "full_attention", None]
        if spec.get("fields") == "fewer":
            e = e[:7]  # an older vLLM: up to medium
        elif spec.get("fields") == "more":
            e = e + ["local", {"future": 1}]  # a newer vLLM: locality and beyond
        return e
    e = {"type": "BlockStored", "block_hashes": block_hashes, "parent_block_hash": parent, "token_ids": tokens,
         "block_size": BLOCK_SIZE, "lora_id": None, "medium": "GPU", "lora_name": None}
    if spec.get("fields") == "more":
        e["extra_keys"] = extra_keys
        e["group_idx"] = 0
        e["kv_cache_spec_kind"] = "full_attention"
        e["locality"] = "local"
        e["future_field"] = [1, 2, 3]
    return e


def removed(spec, hashes):
    prompt, (start, end) = spec["prompt"], spec["blocks"]
    block_hashes = [hashes.by_block[(prompt, i)] for i in range(start, end)]
    if spec["encoding"] == "array":
        return ["BlockRemoved", block_hashes, "GPU", 0]
    return {"type": "BlockRemoved", "block_hashes": block_hashes, "medium": "GPU"}


def event(spec, prompts, hashes):
    t = spec["type"]
    if t == "BlockStored":
        return stored(spec, prompts, hashes)
    if t == "BlockRemoved":
        return removed(spec, hashes)
    if t == "AllBlocksCleared":
        return ["AllBlocksCleared"] if spec["encoding"] == "array" else {"type": "AllBlocksCleared"}
    if t == "Unknown":  # a newer engine's event type
        return ["BlockTouched", [1, 2]] if spec["encoding"] == "array" else {"type": "BlockTouched", "n": 1}
    raise ValueError("unknown event type " + t)


def payload(cmd, prompts, hashes):
    events = [event(s, prompts, hashes) for s in cmd["events"]]
    ts = time.time()
    if cmd.get("shape", "array") == "map":
        batch = {"ts": ts, "events": events, "data_parallel_rank": 0}
    else:
        batch = [ts, events, 0]
    return msgpack.packb(batch, use_bin_type=True)


def main():
    seed = int(sys.argv[1])
    signal.alarm(int(sys.argv[2]))  # never outlive the test that started us
    ctx = zmq.Context()
    pubs = {}
    prompts = {}
    hashes = Hashes(seed)
    poller = zmq.Poller()
    stdin = sys.stdin.fileno()
    poller.register(stdin, zmq.POLLIN)
    pending = b""
    emit({"ready": True, "zmq": zmq.zmq_version(), "msgpack": ".".join(map(str, msgpack.version))})
    while True:
        for sock, _ in poller.poll(1000):
            if sock != stdin:
                for p in pubs.values():
                    if p.router is sock:
                        p.serve_replay()
                continue
            chunk = os.read(stdin, 65536)
            if not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if not line.strip():
                    continue
                cmd = json.loads(line)
                op = cmd["cmd"]
                if op == "quit":
                    for p in pubs.values():
                        p.close()
                    ctx.term()
                    return
                try:
                    if op == "open":
                        p = Publisher(ctx, cmd["pub"], cmd["mode"], cmd["endpoint"], cmd.get("replay", False))
                        pubs[p.name] = p
                        if p.router is not None:
                            poller.register(p.router, zmq.POLLIN)
                        emit({"opened": p.name, "endpoint": p.endpoint, "replay": p.replay_endpoint})
                    elif op == "restart":
                        p = pubs[cmd["pub"]]
                        if p.router is not None:
                            poller.unregister(p.router)
                        p.restart()
                        if p.router is not None:
                            poller.register(p.router, zmq.POLLIN)
                        emit({"restarted": p.name, "endpoint": p.endpoint})
                    elif op == "await_subscriber":
                        prefix = pubs[cmd["pub"]].await_subscriber(cmd.get("timeout", 30))
                        emit({"subscribed": cmd["pub"], "prefix": prefix})
                    elif op == "prompt":
                        prompts[cmd["name"]] = cmd["tokens"]
                        emit({"prompt": cmd["name"]})
                    elif op == "batch":
                        p = pubs[cmd["pub"]]
                        data = payload(cmd, prompts, hashes)
                        seq = cmd["seq"]
                        if p.router is not None:
                            p.kept.append((seq, data))
                        if cmd.get("live", True):
                            p.pub.send_multipart([cmd["topic"].encode("utf-8"), seq.to_bytes(8, "big"), data])
                        emit({"sent": seq, "pub": p.name, "live": cmd.get("live", True), "bytes": data.hex()})
                    elif op == "raw":
                        p = pubs[cmd["pub"]]
                        p.pub.send_multipart([bytes.fromhex(f) for f in cmd["frames"]])
                        emit({"sent_raw": len(cmd["frames"]), "pub": p.name})
                    else:
                        emit({"error": "unknown command " + op})
                except Exception as e:  # report, keep serving: the test decides
                    emit({"error": "%s failed: %r" % (op, e)})


if __name__ == "__main__":
    main()
