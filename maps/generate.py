#!/usr/bin/env python3
"""Generate planbench's bundled maps (Python 3 standard library only).

    python3 maps/generate.py [OUTPUT_DIR]      (default: the folder of this script)

Writes room1.png, maze.png, forest.png, narrow.png and 4d.png as 8-bit greyscale PNGs, and
room1_ros.png and forest_ros.png, the first and the third upside down, for the simulation
worlds (see upside_down()):
255 (white) is free, 0 (black) is an obstacle. Each file carries its default problem in
tEXt chunks placed before IDAT:

    planbench:start, planbench:goal                     "X,Y"  pixel-centre coordinates
    planbench:stickarm4d:start, planbench:stickarm4d:goal   "X,Y,TH1,TH2" (4d.png only)

x is the column, y the row from the top; angles are radians from +x towards +y (down).

Also writes office.pgm and office.yaml, a map_server (nav2) map as map_saver writes them:
an 8-bit binary PGM with 254 free, 0 occupied and 205 unknown, and a YAML file (resolution
0.05 m/pixel, origin [-3.0, -2.0, 0.0], trinary, free_thresh 0.196, occupied_thresh 0.65)
whose planbench_start and planbench_goal are in metres in the map frame (y up); and
wall40.pgm and wall40.yaml, the car benchmark's map of issue 18 (40 x 40 m at 0.1 m/pixel,
origin [0, 0, 0], 254 free, 0 for the wall x in [18, 22] m, y < 30 m; no unknown cells).

Everything is deterministic: randomness comes from a fixed-seed splitmix64 written out
here (not Python's `random`, whose algorithms may change between versions), so the same
script writes byte-identical files. Before writing, every map is VERIFIED, and the script
exits non-zero if any check fails:
  * every default start and goal pixel is free;
  * start and goal are 8-connected through free pixels of the map eroded by CLEARANCE px
    (a pixel survives erosion when the whole (2*CLEARANCE+1)^2 square around it is free);
  * for 4d.png, the two-link arm (links 30, 30 px) at its 4D start and goal is collision
    free: both links rasterised with integer Bresenham from floor(joint) to floor(tip),
    every pixel inside the image and free.
"""
import math
import os
import re
import struct
import sys
import zlib

CLEARANCE = 3
ARM_LINKS = (30.0, 30.0)
FREE, OCCUPIED = 255, 0


class Rng:
    """splitmix64: tiny, fixed, and the same on every Python version."""

    MASK = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed & self.MASK

    def next64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def uniform(self, low, high):
        return low + (high - low) * ((self.next64() >> 11) / float(1 << 53))

    def below(self, n):
        """An integer in [0, n) without modulo bias (rejection sampling)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Grid:
    """A greyscale raster, one bytearray per row."""

    def __init__(self, width, height, value=FREE):
        self.width, self.height = width, height
        self.rows = [bytearray([value]) * width for _ in range(height)]

    def rect(self, x0, y0, x1, y1, value=OCCUPIED):
        """Fill the half-open rectangle [x0,x1) x [y0,y1), clipped to the image."""
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(self.width, x1), min(self.height, y1)
        if x1 <= x0:
            return
        fill = bytes([value]) * (x1 - x0)
        for y in range(y0, y1):
            self.rows[y][x0:x1] = fill

    def disc(self, cx, cy, radius, value=OCCUPIED):
        """Fill pixels whose centre lies within `radius` of (cx, cy)."""
        for y in range(max(0, int(cy - radius) - 1), min(self.height, int(cy + radius) + 2)):
            dy = y + 0.5 - cy
            if dy * dy > radius * radius:
                continue
            half = math.sqrt(radius * radius - dy * dy)
            # pixel x is inside when |x + 0.5 - cx| <= half
            x0 = max(0, math.ceil(cx - half - 0.5))
            x1 = min(self.width - 1, math.floor(cx + half - 0.5))
            if x1 >= x0:
                self.rows[y][x0:x1 + 1] = bytes([value]) * (x1 - x0 + 1)

    def is_free(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height and self.rows[y][x] == FREE

    def count_free(self):
        return sum(row.count(FREE) for row in self.rows)


# ---------------------------------------------------------------------------------------
# PNG writing

def png_chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def png_bytes(grid, text):
    """8-bit greyscale PNG, filter type 0, zlib level 9, tEXt chunks before IDAT."""
    raw = b"".join(b"\x00" + bytes(row) for row in grid.rows)
    out = [b"\x89PNG\r\n\x1a\n",
           png_chunk(b"IHDR", struct.pack(">IIBBBBB", grid.width, grid.height, 8, 0, 0, 0, 0))]
    for key, value in text:
        out.append(png_chunk(b"tEXt", key.encode("latin-1") + b"\x00" + value.encode("latin-1")))
    out.append(png_chunk(b"IDAT", zlib.compress(raw, 9)))
    out.append(png_chunk(b"IEND", b""))
    return b"".join(out)


def png_check_roundtrip(data, grid, text):
    """Parse what we wrote (chunk CRCs, header, text, pixels) and compare to the source."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, seen_text = 8, b"", []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if crc != zlib.crc32(tag + body) & 0xFFFFFFFF:
            fail("bad CRC in chunk %r" % tag)
        if tag == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
            if (w, h) != (grid.width, grid.height):
                fail("IHDR size mismatch")
        elif tag == b"tEXt":
            if idat:
                fail("tEXt after IDAT")
            k, v = body.split(b"\x00", 1)
            seen_text.append((k.decode("latin-1"), v.decode("latin-1")))
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    if seen_text != list(text):
        fail("text chunks do not round-trip")
    raw = zlib.decompress(idat)
    stride = grid.width + 1
    for y, row in enumerate(grid.rows):
        if raw[y * stride] != 0 or raw[y * stride + 1:(y + 1) * stride] != row:
            fail("pixel row %d does not round-trip" % y)


# ---------------------------------------------------------------------------------------
# Verification

def fail(message):
    sys.exit("generate.py: VERIFICATION FAILED: " + message)


def row_masks(grid):
    """Each row as an int, bit x set when pixel x is free."""
    table = bytes(0x31 if v == FREE else 0x30 for v in range(256))  # '1' / '0'
    return [int(bytes(row).translate(table)[::-1], 2) for row in grid.rows]


def erode(masks, width, radius):
    """Square (Chebyshev) erosion: outside the image counts as occupied."""
    full = (1 << width) - 1
    horizontal = []
    for m in masks:
        e = m
        for k in range(1, radius + 1):
            e &= (m >> k) & (m << k)
        horizontal.append(e & full)
    out = []
    for y in range(len(masks)):
        e = full
        for dy in range(-radius, radius + 1):
            yy = y + dy
            e &= horizontal[yy] if 0 <= yy < len(masks) else 0
        out.append(e)
    return out


def runs_of(masks, width):
    """Free runs per row as (x_first, x_last) pairs, ascending."""
    result = []
    for m in masks:
        bits = format(m, "0%db" % width)[::-1]
        result.append([(r.start(), r.end() - 1) for r in re.finditer("1+", bits)])
    return result


def connected(masks, width, a, b):
    """Are pixels a and b (x, y) 8-connected through set bits? Union-find over row runs."""
    runs = runs_of(masks, width)
    index, parent = {}, []
    for y, row in enumerate(runs):
        for i in range(len(row)):
            index[(y, i)] = len(parent)
            parent.append(len(parent))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for y in range(1, len(runs)):
        upper, lower = runs[y - 1], runs[y]
        i = j = 0
        while i < len(upper) and j < len(lower):
            (a0, a1), (b0, b1) = upper[i], lower[j]
            if a0 <= b1 + 1 and b0 <= a1 + 1:  # overlap, diagonal contact included
                parent[find(index[(y - 1, i)])] = find(index[(y, j)])
            if a1 < b1:
                i += 1
            else:
                j += 1

    def run_of(p):
        x, y = p
        for i, (x0, x1) in enumerate(runs[y]):
            if x0 <= x <= x1:
                return index[(y, i)]
        return None

    ra, rb = run_of(a), run_of(b)
    return ra is not None and rb is not None and find(ra) == find(rb)


def bresenham(x0, y0, x1, y1):
    """Integer Bresenham line, both ends included."""
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        yield x0, y0
        if x0 == x1 and y0 == y1:
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def arm_points(q):
    x, y, th1, th2 = q
    jx, jy = x + ARM_LINKS[0] * math.cos(th1), y + ARM_LINKS[0] * math.sin(th1)
    tx, ty = jx + ARM_LINKS[1] * math.cos(th1 + th2), jy + ARM_LINKS[1] * math.sin(th1 + th2)
    return (x, y), (jx, jy), (tx, ty)


def arm_free(grid, q):
    base, joint, tip = arm_points(q)
    for p0, p1 in ((base, joint), (joint, tip)):
        for px, py in bresenham(math.floor(p0[0]), math.floor(p0[1]), math.floor(p1[0]), math.floor(p1[1])):
            if not grid.is_free(px, py):
                return False
    return True


def verify(name, grid, start, goal, arm=None):
    for label, p in (("start", start), ("goal", goal)):
        px, py = math.floor(p[0]), math.floor(p[1])
        if not grid.is_free(px, py):
            fail("%s: default %s %r is not free" % (name, label, p))
    masks = erode(row_masks(grid), grid.width, CLEARANCE)
    a = (math.floor(start[0]), math.floor(start[1]))
    b = (math.floor(goal[0]), math.floor(goal[1]))
    if not connected(masks, grid.width, a, b):
        fail("%s: start and goal are not connected with %d px clearance" % (name, CLEARANCE))
    if arm:
        for label, q in (("start", arm[0]), ("goal", arm[1])):
            if not arm_free(grid, q):
                fail("%s: stick arm at the 4D %s %r collides" % (name, label, q))


# ---------------------------------------------------------------------------------------
# The maps

def room1():
    """An office floor, 500x400: six rooms around a corridor, 5 px walls, 26 px doorways.

    Start in the top-left office, goal in the bottom-right one; the only route is
    A -> B -> corridor -> E -> F through four doorways."""
    g = Grid(500, 400)
    wall, door = 5, 26
    # outer walls
    g.rect(0, 0, 500, wall)
    g.rect(0, 400 - wall, 500, 400)
    g.rect(0, 0, wall, 400)
    g.rect(500 - wall, 0, 500, 400)
    # corridor y in [175, 225), walls above and below
    g.rect(0, 170, 500, 175)
    g.rect(0, 225, 500, 230)
    # top row of rooms: A [5,165), B [170,330), C [335,495)
    g.rect(165, 0, 170, 175)
    g.rect(330, 0, 335, 175)
    # C is split into two small offices C1 (top) and C2 (bottom)
    g.rect(335, 85, 500, 90)
    # bottom row of rooms: D [5,150), E [155,320), F [325,495)
    g.rect(150, 225, 155, 400)
    g.rect(320, 225, 325, 400)
    # doorways (value FREE cuts the wall)
    g.rect(165, 120, 170, 120 + door, FREE)  # A <-> B
    g.rect(290, 170, 290 + door, 175, FREE)  # B <-> corridor
    g.rect(360, 170, 360 + door, 175, FREE)  # C2 <-> corridor
    g.rect(440, 85, 440 + door, 90, FREE)  # C1 <-> C2
    g.rect(60, 225, 60 + door, 230, FREE)  # corridor <-> D
    g.rect(180, 225, 180 + door, 230, FREE)  # corridor <-> E
    g.rect(320, 340, 325, 340 + door, FREE)  # E <-> F
    # furniture: desks and tables
    g.rect(70, 60, 125, 90)  # A: desk
    g.rect(20, 130, 60, 150)  # A: cabinet
    g.rect(205, 50, 295, 110)  # B: meeting table
    g.rect(370, 25, 420, 50)  # C1: desk
    g.rect(400, 115, 470, 140)  # C2: desk
    g.rect(30, 290, 110, 320)  # D: desk
    g.rect(200, 280, 280, 300)  # E: desk
    g.rect(230, 345, 290, 375)  # E: desk
    g.rect(370, 250, 450, 280)  # F: table
    g.rect(420, 310, 490, 325)  # F: shelf against the wall
    return g, (30.5, 30.5), (460.5, 365.5), None


def maze(seed=20240521, cells=18, pitch=55, wall=10):
    """A cells x cells perfect maze: by default 1000x1000, 45 px corridors, 10 px walls (pitch
    55). bench/default_step.py makes a large one (66 cells of pitch 60: 3970 px, 50 px corridors)."""
    size = cells * pitch + wall
    g = Grid(size, size, OCCUPIED)
    for cy in range(cells):
        for cx in range(cells):
            g.rect(cx * pitch + wall, cy * pitch + wall, (cx + 1) * pitch, (cy + 1) * pitch, FREE)
    rng = Rng(seed)
    visited = [[False] * cells for _ in range(cells)]
    stack = [(0, 0)]
    visited[0][0] = True
    while stack:
        cx, cy = stack[-1]
        options = [(cx + dx, cy + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= cx + dx < cells and 0 <= cy + dy < cells and not visited[cy + dy][cx + dx]]
        if not options:
            stack.pop()
            continue
        rng.shuffle(options)
        nx, ny = options[0]
        visited[ny][nx] = True
        # open the wall between the two cells
        x0, y0 = min(cx, nx), min(cy, ny)
        if nx != cx:
            g.rect((x0 + 1) * pitch, y0 * pitch + wall, (x0 + 1) * pitch + wall, (y0 + 1) * pitch, FREE)
        else:
            g.rect(x0 * pitch + wall, (y0 + 1) * pitch, (x0 + 1) * pitch, (y0 + 1) * pitch + wall, FREE)
        stack.append((nx, ny))
    centre = wall + (pitch - wall) // 2 + 0.5
    far = (cells - 1) * pitch + centre
    return g, (centre, centre), (far, far), None


def scatter_discs(g, rng, target, r_min, r_max, keep_clear):
    """Drop random discs until `target` of the map is covered, never within the keep-clear
    circles [(x, y, radius)]."""
    total = g.width * g.height
    covered = total - g.count_free()
    while covered < target * total:
        r = rng.uniform(r_min, r_max)
        cx = rng.uniform(0, g.width)
        cy = rng.uniform(0, g.height)
        if any(math.hypot(cx - x, cy - y) < r + clear for x, y, clear in keep_clear):
            continue
        g.disc(cx, cy, r)
        covered = total - g.count_free()


def forest(seed=7):
    """Random discs (radius 15-45 px) over 1000x1000 until 22% is covered."""
    g = Grid(1000, 1000)
    start, goal = (40.5, 40.5), (959.5, 959.5)
    scatter_discs(g, Rng(seed), 0.22, 15, 45, [(start[0], start[1], 30), (goal[0], goal[1], 30)])
    return g, start, goal, None


def narrow(gap_x=620, gap_width=10, wall_top=460, wall_bottom=540):
    """A wall 80 px thick across the middle with one 10 px wide, 80 px long passage."""
    g = Grid(1000, 1000)
    g.rect(0, wall_top, 1000, wall_bottom)
    g.rect(gap_x, wall_top, gap_x + gap_width, wall_bottom, FREE)
    return g, (100.5, 100.5), (900.5, 900.5), None


def four_d(seed=4):
    """Sparser discs (radius 15-45 px, 12% covered) for a two-link 30+30 px stick arm."""
    g = Grid(1000, 1000)
    start, goal = (100.5, 100.5), (900.5, 900.5)
    reach = ARM_LINKS[0] + ARM_LINKS[1]
    scatter_discs(g, Rng(seed), 0.12, 15, 45,
                  [(start[0], start[1], reach + 20), (goal[0], goal[1], reach + 20)])
    arm = ((start[0], start[1], 0.0, 0.0), (goal[0], goal[1], math.pi / 2, -math.pi / 2))
    return g, start, goal, arm


MAPS = [("room1.png", room1), ("maze.png", maze), ("forest.png", forest), ("narrow.png", narrow),
        ("4d.png", four_d)]


def upside_down(make):
    """The map `make` builds, turned upside down (row y becomes row height - 1 - y), with its
    default problem turned too. The simulation serves a PNG map in ROS's frame (y up, one unit
    per pixel, origin the image's lower-left corner, REP-103), so a world on the turned image
    has, in that frame, exactly the coordinates that the original's pixels have (x the column,
    y the row from the top): the simulation worlds and their tests keep their numbers."""
    def turned():
        grid, start, goal, arm = make()
        out = Grid(grid.width, grid.height)
        out.rows = [bytearray(row) for row in reversed(grid.rows)]
        def flip(p):
            return (p[0], grid.height - p[1]) + tuple(p[2:])
        return out, flip(start), flip(goal), None
    return turned


# The worlds' maps (worlds/sim_room1.xml, sim_forest.xml), in the simulation's frame.
SIM_MAPS = [("room1_ros.png", upside_down(room1)), ("forest_ros.png", upside_down(forest))]


# ---------------------------------------------------------------------------------------
# A map_server map: PGM + YAML

MAP_FREE, MAP_UNKNOWN = 254, 205  # what map_saver writes for free and unknown cells
OFFICE_RESOLUTION = 0.05
OFFICE_ORIGIN = (-3.0, -2.0, 0.0)


def office():
    """A small building, 240x160 px (12 x 8 m at 0.05 m/px), as a SLAM map shows it: unknown
    (205) outside, 4 px (0.2 m) walls, three rooms off a hall, 20 px (1 m) doorways, furniture.

    Start in the west room, goal in the east room; pixel-centre coordinates (u, v), v down."""
    g = Grid(240, 160, MAP_UNKNOWN)
    g.rect(10, 10, 230, 150, MAP_FREE)  # the building's inside
    wall = 4
    for x0, y0, x1, y1 in ((10, 10, 230, 10 + wall), (10, 150 - wall, 230, 150), (10, 10, 10 + wall, 150),
                           (230 - wall, 10, 230, 150),
                           (80, 10, 80 + wall, 110), (160, 10, 160 + wall, 110),  # room walls
                           (10, 110, 230, 110 + wall)):  # the hall's north wall
        g.rect(x0, y0, x1, y1)
    for x0, y0, x1, y1 in ((40, 110, 60, 110 + wall), (190, 110, 210, 110 + wall),  # rooms <-> hall
                           (80, 40, 80 + wall, 60)):  # west <-> middle room
        g.rect(x0, y0, x1, y1, MAP_FREE)
    for x0, y0, x1, y1 in ((30, 40, 60, 55), (110, 30, 140, 80), (180, 60, 215, 75), (100, 125, 150, 135)):
        g.rect(x0, y0, x1, y1)  # desks, a table, a bench in the hall
    return g, (25.5, 25.5), (220.5, 25.5)


def pixel_to_metres(u, v, height):
    """A point of the image (u right, v down, pixels) in the map frame (metres, y up)."""
    return (OFFICE_ORIGIN[0] + u * OFFICE_RESOLUTION, OFFICE_ORIGIN[1] + (height - v) * OFFICE_RESOLUTION)


def pgm_bytes(grid):
    return b"P5\n%d %d\n255\n" % (grid.width, grid.height) + b"".join(bytes(row) for row in grid.rows)


def pgm_check_roundtrip(data, grid):
    header = data.split(b"\n", 3)
    assert header[0] == b"P5" and header[1] == b"%d %d" % (grid.width, grid.height) and header[2] == b"255"
    pixels = header[3]
    assert len(pixels) == grid.width * grid.height
    for y, row in enumerate(grid.rows):
        assert pixels[y * grid.width:(y + 1) * grid.width] == bytes(row), "row %d differs" % y


def write_atomic(path, data):
    tmp = path + ".tmp.%d" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def planning_view(grid):
    """The map as planning sees it: free (254) cells FREE, unknown and occupied ones OCCUPIED."""
    view = Grid(grid.width, grid.height, OCCUPIED)
    for y, row in enumerate(grid.rows):
        view.rows[y] = bytearray(FREE if v == MAP_FREE else OCCUPIED for v in row)
    return view


def map_server_yaml(image, resolution, origin, start, goal):
    """A map_server YAML file as map_saver writes it (trinary), with planbench's default problem."""
    return ("image: %s\n"
            "mode: trinary\n"
            "resolution: %s\n"
            "origin: [%s]\n"
            "negate: 0\n"
            "occupied_thresh: 0.65\n"
            "free_thresh: 0.196\n"
            "# planbench's default problem, metres in the map frame (ignored by map_server)\n"
            "planbench_start: [%s]\n"
            "planbench_goal: [%s]\n") % (
        image, fmt_number(resolution), ", ".join(repr(float(v)) for v in origin),
        ", ".join(fmt_number(round(v, 6)) for v in start), ", ".join(fmt_number(round(v, 6)) for v in goal))


def write_office(out_dir):
    grid, start_px, goal_px = office()
    # planning sees free (254) cells only: verify on that view
    view = planning_view(grid)
    verify("office.pgm", view, start_px, goal_px)
    data = pgm_bytes(grid)
    pgm_check_roundtrip(data, grid)
    start = pixel_to_metres(start_px[0], start_px[1], grid.height)
    goal = pixel_to_metres(goal_px[0], goal_px[1], grid.height)
    yaml = map_server_yaml("office.pgm", OFFICE_RESOLUTION, OFFICE_ORIGIN, start, goal)
    write_atomic(os.path.join(out_dir, "office.pgm"), data)
    write_atomic(os.path.join(out_dir, "office.yaml"), yaml.encode("ascii"))
    unknown = sum(row.count(MAP_UNKNOWN) for row in grid.rows) / float(grid.width * grid.height)
    print("%-10s %4dx%-4d  %5.1f%% unknown   %6d bytes  start %s  goal %s (metres)" % (
        "office.pgm", grid.width, grid.height, 100 * unknown, len(data),
        ",".join(fmt_number(round(v, 6)) for v in start), ",".join(fmt_number(round(v, 6)) for v in goal)))


# ---------------------------------------------------------------------------------------
# The car benchmark's map (issue 18): map_server PGM + YAML, metres

WALL40_RESOLUTION = 0.1
WALL40_SIZE = 40.0  # metres, square; the map's edges are its bounds (no border wall)
WALL40_WALL = (18.0, 22.0, 30.0)  # x in [18, 22], y < 30 (from the bottom edge)
WALL40_START, WALL40_GOAL = (5.0, 5.0), (35.0, 5.0)
# robots/lexus_rx450h.xml: length, width, rear overhang (rear bumper to rear axle)
LEXUS_FOOTPRINT = (4.89, 1.896, 1.1)


def wall40():
    """40 x 40 m at 0.1 m/px (400 x 400): free (254) everywhere but a wall (0) x in [18, 22] m,
    y in [0, 30) m; the map frame has y up, so the wall fills image rows 100..399 (v down)."""
    cells = int(round(WALL40_SIZE / WALL40_RESOLUTION))
    x0, x1, top = (int(round(v / WALL40_RESOLUTION)) for v in WALL40_WALL)
    g = Grid(cells, cells, MAP_FREE)
    g.rect(x0, cells - top, x1, cells)
    return g


def rect_cells_free(view, x_lo, x_hi, y_lo, y_hi):
    """Is every cell that an axis-aligned rectangle (metres, map frame of wall40, y up) overlaps
    inside the map and free in `view`?"""
    res = WALL40_RESOLUTION
    i0, i1 = math.floor(x_lo / res), math.ceil(x_hi / res)
    j0, j1 = math.floor(y_lo / res), math.ceil(y_hi / res)
    return all(view.is_free(i, view.height - 1 - j) for i in range(i0, i1) for j in range(j0, j1))


def write_wall40(out_dir):
    grid = wall40()
    view = planning_view(grid)

    def to_px(p):
        return (p[0] / WALL40_RESOLUTION, grid.height - p[1] / WALL40_RESOLUTION)

    verify("wall40.pgm", view, to_px(WALL40_START), to_px(WALL40_GOAL))
    length, width, overhang = LEXUS_FOOTPRINT
    for label, (x, y) in (("start", WALL40_START), ("goal", WALL40_GOAL)):
        if not rect_cells_free(view, x - overhang, x - overhang + length, y - width / 2, y + width / 2):
            fail("wall40.pgm: the Lexus footprint at the %s (%g, %g, heading 0) is not free" % (label, x, y))
    data = pgm_bytes(grid)
    pgm_check_roundtrip(data, grid)
    yaml = map_server_yaml("wall40.pgm", WALL40_RESOLUTION, (0.0, 0.0, 0.0), WALL40_START, WALL40_GOAL)
    write_atomic(os.path.join(out_dir, "wall40.pgm"), data)
    write_atomic(os.path.join(out_dir, "wall40.yaml"), yaml.encode("ascii"))
    occupied = sum(row.count(OCCUPIED) for row in grid.rows) / float(grid.width * grid.height)
    print("%-10s %4dx%-4d  %5.1f%% occupied  %6d bytes  start %s  goal %s (metres)" % (
        "wall40.pgm", grid.width, grid.height, 100 * occupied, len(data),
        ",".join(fmt_number(v) for v in WALL40_START), ",".join(fmt_number(v) for v in WALL40_GOAL)))


def fmt_number(v):
    """Shortest text that reads back as the same double ("60.5", "1.5707963267948966", "0")."""
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out_dir, exist_ok=True)
    for filename, make in MAPS + SIM_MAPS:
        grid, start, goal, arm = make()
        verify(filename, grid, start, goal, arm)
        text = [("planbench:start", ",".join(fmt_number(v) for v in start)),
                ("planbench:goal", ",".join(fmt_number(v) for v in goal))]
        if arm:
            text += [("planbench:stickarm4d:start", ",".join(fmt_number(v) for v in arm[0])),
                     ("planbench:stickarm4d:goal", ",".join(fmt_number(v) for v in arm[1]))]
        data = png_bytes(grid, text)
        png_check_roundtrip(data, grid, text)
        path = os.path.join(out_dir, filename)
        tmp = path + ".tmp.%d" % os.getpid()
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        coverage = 1.0 - grid.count_free() / float(grid.width * grid.height)
        print("%-10s %4dx%-4d  %5.1f%% occupied  %6d bytes  start %s  goal %s" % (
            filename, grid.width, grid.height, 100 * coverage, len(data), text[0][1], text[1][1]))
    write_office(out_dir)
    write_wall40(out_dir)


if __name__ == "__main__":
    main()
