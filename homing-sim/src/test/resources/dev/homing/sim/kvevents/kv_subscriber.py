"""A KV-event subscriber as a router written in Python would be: pyzmq, msgpack and cbor2 from Debian.

Driven by KvEventsPythonIT over stdin/stdout, one JSON object per line. It decodes what the simulated pod publishes
with nothing but these libraries and vLLM's field lists, recomputes block hashes the way vLLM's sha256_cbor does,
and asks for a replay over a DEALER socket. Usage: kv_subscriber.py bind|connect ENDPOINT TOPIC_PREFIX
"""
import json
import os
import sys
import time

try:
    import hashlib
    import cbor2
    import msgpack
    import zmq
except ImportError as e:
    print(json.dumps({"error": "missing Python module %s: install the Debian packages python3-zmq python3-msgpack "
                               "python3-cbor2" % e.name}), flush=True)
    sys.exit(3)

# vLLM's declaration order (vllm/distributed/kv_events.py); the legacy array carries them by position after the tag.
FIELDS = {
    "BlockStored": ["block_hashes", "parent_block_hash", "token_ids", "block_size", "lora_id", "medium", "lora_name",
                    "extra_keys", "group_idx", "kv_cache_spec_kind", "kv_cache_spec_sliding_window"],
    "BlockRemoved": ["block_hashes", "medium", "group_idx"],
    "AllBlocksCleared": [],
}
END_SEQ = b"\xff" * 8
LIFETIME_SECONDS = 180  # never outlive the test that started us


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def wire_hash(h):
    if isinstance(h, bytes):
        return {"bytes": h.hex()}
    if isinstance(h, int):
        return {"int": str(h)}
    return {"other": repr(h)}


def describe_event(e):
    if isinstance(e, list):
        tag = e[0]
        out = {"type": tag, "form": "array", "length": len(e)}
        fields = dict(zip(FIELDS[tag], e[1:]))
    elif isinstance(e, dict):
        tag = e["type"]
        out = {"type": tag, "form": "map", "keys": list(e.keys())}
        fields = {k: v for k, v in e.items() if k != "type"}
    else:
        return {"type": None, "form": type(e).__name__}
    for k, v in fields.items():
        if k == "block_hashes":
            out[k] = [wire_hash(h) for h in v]
        elif k == "parent_block_hash":
            out[k] = None if v is None else wire_hash(v)
        else:
            out[k] = v
    return out


def describe(payload):
    obj = msgpack.unpackb(payload, raw=False)
    ts, events, rank = obj
    return {
        "outer": type(obj).__name__,
        "ts_is_float": isinstance(ts, float),
        "ts": ts,
        "rank": rank,
        # msgpack-python writes every value in its shortest form, as msgspec does: the bytes must survive a round trip.
        "repack_equal": msgpack.packb(obj, use_bin_type=True) == payload,
        "events": [describe_event(e) for e in events],
    }


def block_hashes(seed, tokens, block_size, lora, salt):
    h = lambda o: hashlib.sha256(cbor2.dumps(o, canonical=True)).digest()
    parent = h(seed)
    out = []
    for b in range(len(tokens) // block_size):
        keys = ([lora] if lora is not None else []) + ([salt] if salt is not None and b == 0 else [])
        parent = h((parent, tuple(tokens[b * block_size:(b + 1) * block_size]), tuple(keys) if keys else None))
        out.append({"hex": parent.hex(), "low64": str(int.from_bytes(parent, "big") & (2 ** 64 - 1))})
    return out


def replay(ctx, endpoint, start, live):
    dealer = ctx.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(endpoint)
    dealer.send_multipart([b"", start.to_bytes(8, "big")])
    batches, end_ok, frames_ok = [], False, True
    while True:
        if not dealer.poll(5000):
            break
        frames = dealer.recv_multipart()
        if len(frames) != 3 or frames[0] != b"":
            frames_ok = False
            break
        if frames[1] == END_SEQ:
            end_ok = frames[2] == b""
            break
        seq = int.from_bytes(frames[1], "big")
        batches.append({"seq": seq, "matches_live": (live[seq] == frames[2]) if seq in live else None,
                        "batch": describe(frames[2])})
    dealer.close()
    return {"replay": batches, "end_ok": end_ok, "frames_ok": frames_ok}


def main():
    mode, endpoint, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    ctx = zmq.Context()
    sub = ctx.socket(zmq.SUB)
    sub.setsockopt(zmq.LINGER, 0)
    sub.setsockopt(zmq.SUBSCRIBE, prefix.encode())
    if mode == "bind":
        emit({"port": sub.bind_to_random_port("tcp://127.0.0.1")})
    else:
        sub.connect(endpoint)
    emit({"ready": True})
    live = {}
    stdin = sys.stdin.fileno()
    pending = b""
    poller = zmq.Poller()
    poller.register(sub, zmq.POLLIN)
    poller.register(stdin, zmq.POLLIN)
    deadline = time.time() + LIFETIME_SECONDS
    while time.time() < deadline:
        ready = dict(poller.poll(500))
        if sub in ready:
            frames = sub.recv_multipart()
            if len(frames) != 3 or len(frames[1]) != 8:
                emit({"bad_message": [len(f) for f in frames]})
                continue
            seq = int.from_bytes(frames[1], "big")
            live[seq] = frames[2]
            emit({"live": {"seq": seq, "topic": frames[0].decode("utf-8"), "batch": describe(frames[2])}})
        if stdin in ready:
            chunk = os.read(stdin, 1 << 16)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                cmd = json.loads(line)
                if cmd["cmd"] == "hash":
                    emit({"hashes": block_hashes(cmd["seed"], cmd["tokens"], cmd["block_size"], cmd.get("lora"),
                                                 cmd.get("salt"))})
                elif cmd["cmd"] == "replay":
                    emit(replay(ctx, cmd["endpoint"], cmd["start"], live))
                elif cmd["cmd"] == "quit":
                    return


if __name__ == "__main__":
    main()
