# SPDX-License-Identifier: GPL-2.0
"""What crossed the line between gdb and a stub, counted from the log of
gdb_wire.WireProxy (the man in the middle the line-noise tests use): `make
bench`'s packet table and the tests that check what a stop costs
(test_gdb_lean.py).

gdb's own packet log is no measure of the wire: it cuts packets at
`remote-packet-max-chars` (512 by default), shows run-length encoded
replies expanded, and leaves out acks.  The proxy passes every byte on
unchanged and keeps (time, direction, bytes).  It costs latency, so only
the bench's packet pass goes through it; the timed figures are taken
without it.

    w = WireProxy(path, target)     # listens on path, one gdb at a time
    ... gdb: target remote path ... BENCH-MARK lines ...
    phase(w.between(t0, t1))        # packets, bytes each way, kinds, rtt
"""

TO_STUB, FROM_STUB = "gdb", "stub"     # gdb_wire.WireProxy's directions


def payloads(chunks, direction):
    """The packets one way, in order, as (time of their last byte, payload
    as sent); acks and noise left out."""
    out, buf = [], b""
    for t, d, data in chunks:
        if d != direction:
            continue
        buf += data
        while True:
            i = buf.find(b"$")
            j = buf.find(b"#", i + 1) if i >= 0 else -1
            if i < 0 or j < 0 or j + 3 > len(buf):
                break
            out.append((t, buf[i + 1:j]))
            buf = buf[j + 3:]
    return out


def expand_rle(payload):
    """A reply as gdb reads it: "c*N" is c and N - 29 more copies of c."""
    out, i = bytearray(), 0
    while i < len(payload):
        c = payload[i]
        if c == ord("*") and out and i + 1 < len(payload):
            out += bytes([out[-1]]) * (payload[i + 1] - 29)
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def kind(payload):
    """A short name for a request: its letter, or vCont/qXfer/q-name."""
    p = payload.decode("latin-1")
    if p.startswith("v"):
        return p.split(";")[0].split(":")[0][:8]
    if p.startswith("qXfer"):
        return "qXfer"
    if p.startswith(("q", "Q")):
        return p.split(":")[0].split(",")[0][:14]
    return p[:1]


def phase(chunks):
    """Packets gdb sent, bytes each way (acks and noise included), request
    kinds and the mean request->reply time of one phase's log entries."""
    sent, got = payloads(chunks, TO_STUB), payloads(chunks, FROM_STUB)
    res = {"packets": len(sent), "kinds": {}, "replies": 0, "rtt_sum_s": 0.0,
           "bytes_out": sum(len(c[2]) for c in chunks if c[1] == TO_STUB),
           "bytes_in": sum(len(c[2]) for c in chunks if c[1] == FROM_STUB)}
    j = 0
    for t, p in sent:
        k = kind(p)
        res["kinds"][k] = res["kinds"].get(k, 0) + 1
        while j < len(got) and got[j][0] < t:
            j += 1
        if j < len(got):                # the reply to it: the next one after
            res["replies"] += 1
            res["rtt_sum_s"] += got[j][0] - t
            j += 1
    res["rtt_mean_ms"] = (1e3 * res["rtt_sum_s"] / res["replies"]) if res["replies"] else None
    return res
