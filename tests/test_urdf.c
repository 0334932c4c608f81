/* URDF, SRDF and world files: what is read, and bad input rejected with the file, the line
 * and the reason (issue 7). */
#include "harness.h"
#include "robot/urdf.h"
#include "robot/world.h"

#include <string.h>

static pb_status parse(pb_robot *robot, const char *text, pb_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    return pb_urdf_load_memory(robot, text, strlen(text), "test.urdf", "/nonexistent", diag);
}

/* The URDF must fail with a message containing `needle` at `line`. */
static void expect_error(const char *text, int line, const char *needle)
{
    pb_robot robot;
    pb_diag diag;
    const pb_status st = parse(&robot, text, &diag);
    CHECK_MSG(st != PB_OK, "accepted: %s", text);
    CHECK_MSG(strstr(diag.message, needle) != NULL, "message '%s' lacks '%s'", diag.message, needle);
    CHECK_MSG(strcmp(diag.file, "test.urdf") == 0, "file '%s'", diag.file);
    CHECK_MSG(diag.line == line, "line %d, expected %d (%s)", diag.line, line, diag.message);
    CHECK(robot.n_links == 0 && robot.links == NULL); /* left empty */
}

static const char good[] =
    "<?xml version='1.0'?>\n"
    "<robot name='r'>\n"
    "  <link name='a'><collision><origin xyz='0 0 0.5' rpy='0 1.5707963267948966 0'/>\n"
    "    <geometry><cylinder radius='0.1' length='1'/></geometry></collision></link>\n"
    "  <link name='b'><collision><geometry><mesh filename='package://pkg/m/b.stl' "
    "scale='2 2 2'/></geometry></collision>\n"
    "    <collision><geometry><sphere radius='0.2'/></geometry></collision></link>\n"
    "  <link name='c'/>\n"
    "  <joint name='j1' type='continuous'><parent link='a'/><child link='b'/>\n"
    "    <axis xyz='0 0 2'/></joint>\n"
    "  <joint name='j2' type='prismatic'><parent link='b'/><child link='c'/>\n"
    "    <limit lower='-0.5' upper='0.5'/><mimic joint='j1' multiplier='0.5'/></joint>\n"
    "</robot>\n";

static void test_good(void)
{
    pb_robot robot;
    pb_diag diag;
    CHECK_MSG(parse(&robot, good, &diag) == PB_OK, "%s:%d: %s", diag.file, diag.line, diag.message);
    CHECK(robot.n_links == 3 && robot.n_joints == 2 && robot.root == 0);
    CHECK(strcmp(robot.name, "r") == 0);
    const pb_urdf_link *a = &robot.links[0], *b = &robot.links[1];
    CHECK(a->n_shapes == 1 && a->shapes[0].type == PB_SHAPE_CYLINDER);
    CHECK(a->shapes[0].size[0] == 0.1 && a->shapes[0].size[1] == 1.0);
    CHECK_NEAR(a->shapes[0].origin.t[2], 0.5, 0);
    CHECK_NEAR(a->shapes[0].origin.r[2], 1.0, 1e-15); /* pitch 90 deg: x axis -> -z, z -> x */
    CHECK(b->n_shapes == 2 && b->shapes[0].type == PB_SHAPE_MESH && b->shapes[1].type == PB_SHAPE_SPHERE);
    CHECK_MSG(strcmp(b->shapes[0].mesh_path, "/nonexistent/m/b.stl") == 0, "%s", b->shapes[0].mesh_path);
    CHECK(b->shapes[0].size[0] == 2.0);
    const pb_urdf_joint *j1 = &robot.joints[0], *j2 = &robot.joints[1];
    CHECK(j1->type == PB_JOINT_CONTINUOUS && j1->axis[2] == 1.0); /* normalised */
    CHECK(j2->mimic == 0 && j2->mimic_multiplier == 0.5 && j2->mimic_offset == 0.0);
    CHECK(pb_joint_is_active(j1) && !pb_joint_is_active(j2));
    CHECK(robot.order[0] == 0 && robot.order[1] == 1 && robot.order[2] == 2);
    /* SRDF: a chain group, a disabled pair, end effectors; unknown links are errors */
    const char srdf[] = "<robot name='r'><group name='g'><chain base_link='a' tip_link='c'/></group>\n"
                        "<disable_collisions link1='a' link2='c'/>\n"
                        "<end_effector name='grip' parent_link='c' group='fingers' parent_group='g'/>\n"
                        "<end_effector name='bare' parent_link='b'/></robot>";
    CHECK(pb_srdf_load_memory(&robot, srdf, strlen(srdf), "t.srdf", &diag) == PB_OK);
    const pb_srdf_group *g = pb_robot_find_group(&robot, "g");
    CHECK(g && g->n_joints == 1 && g->joints[0] == 0); /* j2 mimics: not planned */
    CHECK(robot.n_disabled == 1 && robot.disabled[0][0] == 0 && robot.disabled[0][1] == 2);
    CHECK(robot.n_end_effectors == 2);
    if (robot.n_end_effectors == 2) {
        const pb_srdf_end_effector *e = robot.end_effectors;
        CHECK(strcmp(e[0].name, "grip") == 0 && e[0].parent_link == 2 && strcmp(e[0].group, "fingers") == 0 &&
              strcmp(e[0].parent_group, "g") == 0 && e[0].line == 3);
        CHECK(strcmp(e[1].name, "bare") == 0 && e[1].parent_link == 1 && !e[1].group && !e[1].parent_group);
    }
    const char bad_srdf[] = "<robot>\n<disable_collisions link1='a' link2='zz'/></robot>";
    CHECK(pb_srdf_load_memory(&robot, bad_srdf, strlen(bad_srdf), "t.srdf", &diag) != PB_OK);
    CHECK(strstr(diag.message, "'zz'") && diag.line == 2);
    const char bad_effector[] = "<robot>\n\n<end_effector name='e' parent_link='zz'/></robot>";
    CHECK(pb_srdf_load_memory(&robot, bad_effector, strlen(bad_effector), "t.srdf", &diag) != PB_OK);
    CHECK_MSG(strstr(diag.message, "parent_link 'zz'") && diag.line == 3, "%s", diag.message);
    const char no_link[] = "<robot><end_effector name='e'/></robot>";
    CHECK(pb_srdf_load_memory(&robot, no_link, strlen(no_link), "t.srdf", &diag) != PB_OK);
    CHECK_MSG(strstr(diag.message, "parent_link"), "%s", diag.message);
    pb_robot_finish(&robot);
    pb_robot_finish(&robot); /* twice is harmless */
}

static void test_bad(void)
{
    expect_error("<robot><link name='a'/>\n<link name='b'>\n</robot>", 3, "not well-formed");
    expect_error("<robt/>", 1, "<robot>");
    expect_error("<robot>\n<link name='a'/><link name='b'/>\n"
                 "<joint name='j' type='fixed'>\n<parent link='nope'/><child link='b'/></joint></robot>",
                 4, "parent link 'nope' does not exist");
    expect_error("<robot>\n<link name='a'/>\n<link name='b'/>\n</robot>", 3, "no parent joint");
    expect_error("<robot><link name='a'/><link name='b'/>\n"
                 "<joint name='j' type='revolute'><parent link='a'/><child link='b'/></joint></robot>",
                 2, "needs <limit");
    expect_error("<robot><link name='a'/><link name='b'/>\n"
                 "<joint name='j' type='floating'><parent link='a'/><child link='b'/></joint></robot>",
                 2, "not supported");
    expect_error("<robot><link name='a'>\n<collision><geometry><box size='1 2'/></geometry></collision>"
                 "</link></robot>",
                 2, "attribute 'size' must be 3 numbers");
    expect_error("<robot><link name='a'/><link name='b'/><link name='c'/>\n"
                 "<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint>\n"
                 "<joint name='k' type='fixed'><parent link='c'/><child link='b'/></joint></robot>",
                 3, "already has parent joint");
    expect_error("<robot><link name='a'/><link name='b'/>\n<joint name='j' type='fixed'>"
                 "<parent link='a'/><child link='b'/>\n<mimic joint='q'/></joint></robot>",
                 3, "mimicked joint 'q'");
}

static void test_world(void)
{
    const char text[] =
        "<world name='w'>\n"
        "<robot urdf='r.urdf' joints='j1 j2'/>\n"
        "<box name='b' size='1 2 3' xyz='1 0 0' quat='0 0 0.7071067811865476 0.7071067811865476'/>\n"
        "<mesh name='m' file='m.stl'/>\n"
        "<start>1, 2</start><goal>3 4</goal>\n"
        "</world>";
    pb_world world;
    pb_diag diag = {0};
    CHECK_MSG(pb_world_load_xml_memory(&world, text, strlen(text), "w.xml", "/d", &diag) == PB_OK, "%s",
              diag.message);
    CHECK(strcmp(world.urdf_path, "/d/r.urdf") == 0 && world.n_joints == 2 && !world.group);
    CHECK(world.n_obstacles == 2 && world.obstacles[0].type == PB_SHAPE_BOX);
    CHECK_NEAR(world.obstacles[0].origin.r[1], -1.0, 1e-15); /* 90 deg about z: y axis -> -x */
    CHECK(strcmp(world.obstacles[1].mesh_path, "/d/m.stl") == 0 && world.obstacles[1].line == 4);
    CHECK(world.n_start == 2 && world.start[1] == 2 && world.n_goal == 2 && world.goal[0] == 3);
    pb_world_finish(&world);
    const char bad[] = "<world>\n<robot urdf='r.urdf'/>\n<pyramid/></world>";
    CHECK(pb_world_load_xml_memory(&world, bad, strlen(bad), "w.xml", "/d", &diag) != PB_OK);
    CHECK(diag.line == 3 && strstr(diag.message, "<pyramid>") && strstr(diag.message, "unknown element"));
    const char bad2[] = "<world>\n<box size='1 1 1'/></world>";
    CHECK(pb_world_load_xml_memory(&world, bad2, strlen(bad2), "w.xml", "/d", &diag) != PB_OK);
    CHECK(strstr(diag.message, "no <robot") != NULL);
}

int main(void)
{
    test_good();
    test_bad();
    test_world();
    return pb_test_summary("urdf");
}
