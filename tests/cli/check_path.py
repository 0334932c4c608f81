#!/usr/bin/env python3
"""Re-validate a planbench --json result against its map, independently of planbench.

usage: check_path.py RESULT.json [MAP.png]

Checks: outcome exact, the path begins exactly at the start and ends exactly at the goal,
every waypoint's pixel is free, every edge's Bresenham pixels (closed form, between the
floor pixels) are free, and the reported cost equals the path's Euclidean length. When the
result says "edge_check": "certified", every point of each continuous edge must lie on a
free pixel instead: points every 1/50 pixel and both sides of every pixel-border crossing. The PNG
decoder here handles what maps/generate.py writes (8-bit grey or RGB, not interlaced).
"""
import json
import math
import struct
import sys
import zlib


def decode_png(path):
    """(width, height, channels, rows): rows of bytes, `channels` per pixel."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (0, 2, 6) and interlace == 0, "unsupported PNG layout"
            channels = {0: 1, 2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride if f else 0):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def load_png(path):
    width, height, channels, rows = decode_png(path)

    def free(x, y):
        if x < 0 or y < 0 or x >= width or y >= height:
            return False
        px = rows[y][x * channels:x * channels + min(channels, 3)]
        return all(v == 255 for v in px)
    return free


def line_pixels(x0, y0, x1, y1):
    if (x1, y1) < (x0, y0):
        x0, y0, x1, y1 = x1, y1, x0, y0
    dx, dy = x1 - x0, y1 - y0
    n, minor = (abs(dx), abs(dy)) if abs(dx) >= abs(dy) else (abs(dy), abs(dx))
    for i in range(n + 1):
        off = (2 * minor * i + n) // (2 * n) if n else 0
        if abs(dx) >= abs(dy):
            yield x0 + (i if dx >= 0 else -i), y0 + (off if dy >= 0 else -off)
        else:
            yield x0 + (off if dx >= 0 else -off), y0 + (i if dy >= 0 else -i)


def segment_free(free, a, b):
    n = int(math.ceil(math.dist(a, b) * 50)) + 1
    for i in range(n + 1):
        t = i / n
        x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        if not free(math.floor(x), math.floor(y)):
            return (x, y)
    for axis in (0, 1):
        d = b[axis] - a[axis]
        if d == 0:
            continue
        v = math.ceil(min(a[axis], b[axis]))
        while v <= max(a[axis], b[axis]):
            t = (v - a[axis]) / d
            p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            for side in (0, -1):
                cell = [math.floor(p[0]), math.floor(p[1])]
                cell[axis] = int(v) + side
                if not free(*cell):
                    return p
            v += 1
    return None


def main():
    r = json.load(open(sys.argv[1]))
    assert r["outcome"] == "exact", r["outcome"]
    path = r["path"]
    assert path[0] == r["start"], "path does not begin at the start"
    assert path[-1] == r["goal"], "path does not end at the goal"
    length = sum(math.dist(a, b) for a, b in zip(path, path[1:]))
    assert abs(length - r["cost"]) <= 1e-9 * max(length, 1.0), ("cost", r["cost"], "length", length)
    free = load_png(sys.argv[2] if len(sys.argv) > 2 else r["map"])
    for a, b in zip(path, path[1:]):
        pa = (math.floor(a[0]), math.floor(a[1]))
        pb = (math.floor(b[0]), math.floor(b[1]))
        if r.get("edge_check") == "certified":
            hit = segment_free(free, a, b)
            assert hit is None, f"certified edge {a} -> {b} passes over an obstacle pixel at {hit}"
            continue
        for x, y in line_pixels(*pa, *pb):
            assert free(x, y), f"edge {a} -> {b} crosses the obstacle pixel ({x}, {y})"
    print(f"ok: {len(path)} waypoints, cost {r['cost']:.6g}")


if __name__ == "__main__":
    main()
