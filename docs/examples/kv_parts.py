"""Writes and reads a large KeyValue value in parts with a plain grpcio client.

The chunked protocol of docs/key-value.md ("Large values in parts"), spoken by a client generated
from the protos with grpc_tools and a channel of default options: no message either way exceeds
gRPC's usual 4 MiB limit, whatever the size of the value.

    python -m grpc_tools.protoc -I api/src/main/proto --python_out=gen --grpc_python_out=gen \
        varve/common/v1/*.proto varve/kv/v1/*.proto
    PYTHONPATH=gen python docs/examples/kv_parts.py 127.0.0.1:8080 my_kv_namespace

Needs grpcio, grpcio-tools (for the stubs) and google-crc32c from PyPI.
"""

import sys
import time
import uuid

import google_crc32c
import grpc
from google.protobuf import timestamp_pb2

from varve.kv.v1 import key_value_pb2 as kv
from varve.kv.v1 import key_value_pb2_grpc as kv_grpc

# Bytes of every part but the last: at most the handshake's key_value_limits.max_chunk_bytes.
PART_BYTES = 1024 * 1024
# Three parts of 1 MiB and their envelope stay under a 4 MiB message.
PARTS_PER_REQUEST = 3


def idempotency_token():
    """One token for every request of a value: its parts and its commit."""
    now = time.time_ns()
    generated = timestamp_pb2.Timestamp(
        seconds=now // 1_000_000_000, nanos=now % 1_000_000_000 // 1000 * 1000)
    return kv.IdempotencyToken(generation_time=generated, token=str(uuid.uuid4()))


def put_in_parts(stub, namespace, record, key, value):
    """Stages the value in parts, then commits it; returns the number of parts."""
    token = idempotency_token()
    count = (len(value) + PART_BYTES - 1) // PART_BYTES
    for first in range(0, count, PARTS_PER_REQUEST):
        parts = [
            kv.Item(key=key, chunk=c, value=value[c * PART_BYTES:(c + 1) * PART_BYTES])
            for c in range(first, min(count, first + PARTS_PER_REQUEST))
        ]
        stub.PutItems(kv.PutItemsRequest(
            idempotency_token=token, namespace=namespace, id=record, items=parts))
    commit = kv.Item(key=key, chunked=kv.ChunkedValue(
        chunk_count=count, value_size=len(value), crc32c=google_crc32c.value(value)))
    stub.PutItems(kv.PutItemsRequest(
        idempotency_token=token, namespace=namespace, id=record, items=[commit]))
    return count


def get_in_parts(stub, namespace, record, key):
    """Reads the value of one key, in parts when it is large; checks the parts' CRC32C."""
    request = kv.GetItemsRequest(
        namespace=namespace, id=record,
        predicate=kv.Predicate(match_keys=kv.MatchKeys(keys=[key])))
    request.signals["chunking"].SetInParent()  # {"chunking": {}}: parts of at most 1 MiB
    parts = []
    described = None
    while True:
        page = stub.GetItems(request)
        for item in page.items:
            if not item.HasField("chunk"):
                return item.value  # small enough to come whole
            if item.chunk != len(parts):
                raise ValueError(f"part {item.chunk} came after {len(parts)} parts")
            parts.append(item.value)
            described = item.chunked
        if not page.next_page_token:
            break
        request.page_token = page.next_page_token
    if described is None:
        return None
    value = b"".join(parts)
    if len(value) != described.value_size or google_crc32c.value(value) != described.crc32c:
        raise ValueError("the parts do not make up the value: read it again")
    return value


def main(target, namespace):
    channel = grpc.insecure_channel(target)  # default options: 4 MiB inbound messages
    stub = kv_grpc.KeyValueStub(channel)
    value = bytes(range(256)) * (64 * 1024 * 1024 // 256)  # 64 MiB
    count = put_in_parts(stub, namespace, "python-example", b"large", value)
    print(f"put {len(value)} bytes in {count} parts")

    read = get_in_parts(stub, namespace, "python-example", b"large")
    print(f"read {len(read)} bytes in parts, byte-exact: {read == value}")

    # without the signal, the server refuses to send a value larger than a message
    try:
        stub.GetItems(kv.GetItemsRequest(
            namespace=namespace, id="python-example",
            predicate=kv.Predicate(match_keys=kv.MatchKeys(keys=[b"large"]))))
        print("without the chunking signal: answered")
    except grpc.RpcError as e:
        print(f"without the chunking signal: {e.code().name}: {e.details()}")
    channel.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
