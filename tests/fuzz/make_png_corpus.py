#!/usr/bin/env python3
"""Write the seed corpus for fuzz_png (Python 3 standard library only).

    python3 tests/fuzz/make_png_corpus.py [OUTPUT_DIR]   (default: tests/fuzz/corpus/png)

A handful of tiny valid PNGs, one per colour type (plus Adam7 interlacing and text chunks),
and a few broken ones (truncated, bad CRC, bad zlib stream, impossible header). Everything
is deterministic, so rerunning rewrites the same files.
"""
import os
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Pack a row of integer samples MSB-first (depth 1/2/4/8) or big-endian (16)."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, nbits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(width, height, color_type, depth, pixel, interlace=False, palette=None, trns=None, text=()):
    """pixel(x, y) -> tuple of samples. Filter type 0 on every row."""
    def scanlines(xs, ys):
        return b"".join(b"\x00" + pack_row([s for x in xs for s in pixel(x, y)], depth) for y in ys)

    if interlace:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, width, dx), range(y0, height, dy)
            if len(xs) and len(ys):
                raw += scanlines(xs, ys)
    else:
        raw = scanlines(range(width), range(height))
    out = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0,
                                                1 if interlace else 0))
    for key, value in text:
        out += chunk(b"tEXt", key + b"\x00" + value)
    if palette is not None:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    out += chunk(b"IDAT", zlib.compress(raw, 9))
    out += chunk(b"IEND", b"")
    return out


def checker(free, occupied):
    return lambda x, y: free if (x + y) % 3 else occupied


def corpus():
    files = {}
    files["grey1-9x3.png"] = png(9, 3, 0, 1, checker((1,), (0,)))
    files["grey2-5x4.png"] = png(5, 4, 0, 2, lambda x, y: ((x + y) % 4,))
    files["grey4-7x2.png"] = png(7, 2, 0, 4, lambda x, y: ((x * 5 + y) % 16,))
    files["grey8-text-6x5.png"] = png(6, 5, 0, 8, checker((255,), (254,)),
                                      text=[(b"planbench:start", b"0.5,0.5"), (b"planbench:goal", b"5.5,4.5")])
    files["grey16-4x3.png"] = png(4, 3, 0, 16, lambda x, y: ((0xFF00, 0xFEFF, 0xFFFF, 0)[(x + y) % 4],))
    files["greyalpha8-4x4.png"] = png(4, 4, 4, 8, lambda x, y: ((255, 0), (254, 255), (0, 0), (255, 255))[x % 4])
    files["palette2-trns-6x3.png"] = png(6, 3, 3, 2, lambda x, y: ((x + y) % 4,),
                                         palette=[(255, 255, 255), (254, 255, 255), (0, 0, 0), (255, 255, 255)],
                                         trns=b"\x00\x80")
    files["rgb8-5x5.png"] = png(5, 5, 2, 8, checker((255, 255, 255), (254, 255, 255)))
    files["rgba16-3x3.png"] = png(3, 3, 6, 16, checker((0xFF00, 0xFFFF, 0xFF80, 0), (0xFEFF, 0xFFFF, 0xFFFF, 0xFFFF)))
    files["rgb8-adam7-11x9.png"] = png(11, 9, 2, 8, checker((255, 255, 255), (0, 0, 0)), interlace=True)
    files["grey1-adam7-70x3.png"] = png(70, 3, 0, 1, checker((1,), (0,)), interlace=True)

    valid = files["rgb8-5x5.png"]
    idat = valid.index(b"IDAT") - 4
    (idat_len,) = struct.unpack(">I", valid[idat:idat + 4])
    files["broken-truncated-half.png"] = valid[:len(valid) // 2]
    files["broken-no-iend.png"] = valid[:-12]
    files["broken-signature-only.png"] = SIGNATURE
    bad_crc = bytearray(valid)
    bad_crc[idat + 8 + idat_len] ^= 0x5A
    files["broken-idat-crc.png"] = bytes(bad_crc)
    files["broken-zlib.png"] = valid[:idat] + chunk(b"IDAT", b"\xff\xff" + valid[idat + 10:idat + 8 + idat_len]) + \
        valid[idat + 12 + idat_len:]
    files["broken-depth3.png"] = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 3, 0, 0, 0, 0)) + \
        valid[idat:]
    files["broken-huge.png"] = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 1, 0, 0, 0, 0)) + \
        valid[idat:]
    files["broken-palette-missing.png"] = png(4, 2, 3, 8, lambda x, y: (x,))
    files["broken-short-idat.png"] = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)) + \
        valid[idat:]
    return files


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                 "corpus", "png")
    os.makedirs(out_dir, exist_ok=True)
    for name, data in sorted(corpus().items()):
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(corpus()), out_dir))


if __name__ == "__main__":
    main()
