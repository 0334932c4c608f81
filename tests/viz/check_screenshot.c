/* Check a --screenshot of a 2D image map against the map and the path written in the same
 * run: the path colour lies along the path's own coordinates, the start and goal markers are
 * where they should be, obstacles stay dark, free space does not, and a status line is drawn.
 * The window shows the picture at scale 1 from its top-left corner (the map fits the screen),
 * with the status bar below.
 * Usage: check_screenshot SHOT.png PATH.csv MAP.png START_X,START_Y GOAL_X,GOAL_Y
 *        check_screenshot --size PICTURE.png   (prints its width and height)
 *        check_screenshot --thirds R,G,B PICTURE.png   (pixels of that colour in each third) */
#include "harness.h"
#include "picture.h"

#include <stdbool.h>
#include <string.h>

static const unsigned char *px(const pb_image *im, long x, long y)
{
    if (x < 0 || y < 0 || x >= im->width || y >= im->height)
        return NULL;
    return im->rgb + ((size_t)y * (size_t)im->width + (size_t)x) * 3;
}

static bool is(const unsigned char *p, int r, int g, int b)
{
    return p && p[0] == r && p[1] == g && p[2] == b;
}

static bool near_colour(const pb_image *im, double x, double y, int r, int g, int b)
{
    for (long dy = -1; dy <= 1; dy++)
        for (long dx = -1; dx <= 1; dx++)
            if (is(px(im, (long)floor(x) + dx, (long)floor(y) + dy), r, g, b))
                return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--size") == 0) { /* the width and height of a picture */
        pb_image picture;
        if (!tp_load_png(argv[2], &picture))
            return 1;
        printf("%d %d\n", picture.width, picture.height);
        pb_image_finish(&picture);
        return 0;
    }
    int r, g, b;
    if (argc == 4 && strcmp(argv[1], "--thirds") == 0 && sscanf(argv[2], "%d,%d,%d", &r, &g, &b) == 3) {
        /* pixels of colour R,G,B in the left, middle and right third of the picture */
        pb_image picture;
        if (!tp_load_png(argv[3], &picture))
            return 1;
        long counts[3] = {0, 0, 0};
        for (int y = 0; y < picture.height; y++)
            for (int x = 0; x < picture.width; x++)
                counts[3 * x / picture.width] += is(px(&picture, x, y), r, g, b);
        printf("%ld %ld %ld\n", counts[0], counts[1], counts[2]);
        pb_image_finish(&picture);
        return 0;
    }
    if (argc != 6) {
        fprintf(stderr, "usage: check_screenshot SHOT.png PATH.csv MAP.png SX,SY GX,GY\n");
        return 2;
    }
    pb_image shot, map;
    double start[2], goal[2];
    if (!tp_load_png(argv[1], &shot) || !tp_load_png(argv[3], &map) ||
        sscanf(argv[4], "%lf,%lf", &start[0], &start[1]) != 2 ||
        sscanf(argv[5], "%lf,%lf", &goal[0], &goal[1]) != 2) {
        fprintf(stderr, "check_screenshot: cannot read the inputs\n");
        return 2;
    }
    double path[4096][2];
    size_t n = 0;
    FILE *f = fopen(argv[2], "r");
    while (f && n < 4096 && fscanf(f, "%lf,%lf", &path[n][0], &path[n][1]) == 2)
        n++;
    if (f)
        fclose(f);
    CHECK_MSG(n >= 2, "the path has %zu points", n);

    /* layout: the map at scale 1, a status bar below */
    CHECK_MSG(shot.width == map.width, "screenshot %d px wide, map %d", shot.width, map.width);
    CHECK_MSG(shot.height > map.height && shot.height <= map.height + 60, "screenshot %d px high, map %d",
              shot.height, map.height);

    /* the path colour along the path's own coordinates (markers cover its ends) */
    size_t on = 0, total = 0;
    double length = 0.0;
    for (size_t i = 1; i < n; i++) {
        const double dx = path[i][0] - path[i - 1][0], dy = path[i][1] - path[i - 1][1];
        const double len = hypot(dx, dy);
        length += len;
        for (double t = 0.0; t <= len; t += 0.5) {
            const double x = path[i - 1][0] + dx * t / len, y = path[i - 1][1] + dy * t / len;
            if (hypot(x - start[0], y - start[1]) < 8.0 || hypot(x - goal[0], y - goal[1]) < 8.0)
                continue;
            total++;
            on += near_colour(&shot, x, y, 220, 20, 20);
        }
    }
    CHECK_MSG(total > 0 && on == total, "path colour at %zu of %zu points along the path", on, total);
    size_t red = 0;
    for (int y = 0; y < map.height; y++)
        for (int x = 0; x < map.width; x++)
            red += is(px(&shot, x, y), 220, 20, 20);
    CHECK_MSG(red >= length && red <= 6.0 * length + 100.0, "%zu path-coloured pixels for a path %.1f long",
              red, length);

    /* start and goal markers */
    CHECK_MSG(is(px(&shot, (long)floor(start[0]), (long)floor(start[1])), 30, 170, 60),
              "no start marker at the start");
    CHECK_MSG(is(px(&shot, (long)floor(goal[0]), (long)floor(goal[1])), 30, 60, 220),
              "no goal marker at the goal");
    CHECK_MSG(!is(px(&shot, (long)floor(start[0]), (long)floor(start[1])), 30, 60, 220),
              "goal colour at the start");

    /* obstacles dark, free space not */
    size_t obstacles = 0, dark = 0, white = 0, free_px = 0, free_dark = 0;
    for (int y = 0; y < map.height; y++) {
        for (int x = 0; x < map.width; x++) {
            const unsigned char *m = px(&map, x, y), *s = px(&shot, x, y);
            if (!is(m, 255, 255, 255)) {
                obstacles++;
                dark += is(s, 40, 40, 40);
                white += is(s, 255, 255, 255);
            } else {
                free_px++;
                free_dark += is(s, 40, 40, 40);
            }
        }
    }
    CHECK_MSG(obstacles > 0 && dark >= obstacles * 99 / 100, "%zu of %zu obstacle pixels dark", dark,
              obstacles);
    CHECK_MSG(white == 0, "%zu obstacle pixels are white", white);
    CHECK_MSG(free_dark <= free_px / 100, "%zu of %zu free pixels are obstacle-dark", free_dark, free_px);

    /* the status bar has text */
    size_t text = 0;
    for (int y = map.height; y < shot.height; y++)
        for (int x = 0; x < shot.width; x++)
            text += px(&shot, x, y)[0] > 150;
    CHECK_MSG(text >= 100, "only %zu text pixels in the status bar", text);
    pb_image_finish(&shot);
    pb_image_finish(&map);
    return pb_test_summary("check_screenshot");
}
