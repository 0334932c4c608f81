// End-to-end test of `planbench serve` with the real roslib 2.x client (Node >= 20, ws).
// Usage: node e2e.mjs PORT. Exits 0 when every check passes; every wait is bounded.
import { Ros, Service, Action, Topic } from 'roslib';

const port = process.argv[2];
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (process.env.E2E_VERBOSE) console.log('check', checks, cond ? 'ok' : 'FAIL', what.slice(0, 120)); if (!cond) { failures++; console.error('CHECK failed:', what); } };
const deadline = setTimeout(() => { console.error('e2e: timed out'); process.exit(1); }, 30000);

const ros = new Ros({ url: `ws://127.0.0.1:${port}` });
await new Promise((ok, fail) => { ros.on('connection', ok); ros.on('error', fail); });

const SI = 'simulation_interfaces/srv/';
const call = (name, type, req) => new Promise((ok, fail) =>
  new Service({ ros, name, serviceType: SI + type }).callService(req, ok, (m) => fail(new Error(m))));
const pose = (x, y, yaw = 0) => ({ position: { x, y, z: 0 }, orientation: { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) } });

// features: exactly what works, including the action
const f = await call('/get_simulator_features', 'GetSimulatorFeatures', {});
check(f.features.features.includes(33) && f.features.features.includes(0), 'features list 0 and 33');

// lifecycle events over a subscription
const events = [];
const topic = new Topic({ ros, name: '/entity_events', messageType: 'planbench_interfaces/msg/EntityEvent' });
topic.subscribe((m) => events.push(m));

// spawn a disc robot at a named pose, and a car in the corridor
const spawn = await call('/spawn_entity', 'SpawnEntity', {
  name: 'bot', allow_renaming: false, entity_resource: { uri: 'model://disc_robot', resource_string: '' },
  entity_namespace: '', initial_pose: { header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' }, pose: pose(40, 40) } });
check(spawn.result.result === 1 && spawn.entity_name === 'bot', `spawn bot: ${JSON.stringify(spawn)}`);
// 1.x shape (flat uri)
const car = await call('/spawn_entity', 'SpawnEntity', { name: 'car', uri: 'model://car_robot', initial_pose: { pose: pose(80, 360) } });
check(car.result.result === 1, `spawn car (1.x shape): ${JSON.stringify(car)}`);

// invalid pose: inside a wall, and overlapping the car
const wall = await call('/spawn_entity', 'SpawnEntity', { name: 'bad', entity_resource: { uri: 'model://disc_robot' }, initial_pose: { pose: pose(2, 2) } });
check(wall.result.result === 109, `spawn in a wall gives INVALID_POSE: ${JSON.stringify(wall)}`);
const overlap = await call('/spawn_entity', 'SpawnEntity', { name: 'bad', entity_resource: { uri: 'model://disc_robot' }, initial_pose: { pose: pose(85, 360) } });
check(overlap.result.result === 109 && overlap.result.error_message.includes("'car'"), `spawn on the car names it: ${JSON.stringify(overlap)}`);

// list
const list = await call('/get_entities', 'GetEntities', { filters: { filter: '^(bot|car)$' } });
check(JSON.stringify(list.entities) === '["bot","car"]', `list: ${JSON.stringify(list.entities)}`);

// move: set a twist, pause, step by service
let r = await call('/set_entity_state', 'SetEntityState', { entity: 'bot', state: { pose: pose(40, 40), twist: { linear: { x: 20, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } }, set_twist: true });
check(r.result.result === 1, 'set twist');
r = await call('/set_simulation_state', 'SetSimulationState', { state: { state: 2 } });
check(r.result.result === 1, 'pause');
r = await call('/step_simulation', 'StepSimulation', { steps: 10 });
check(r.result.result === 1, 'step 10');
let st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(Math.abs(st.state.pose.position.x - 50) < 1e-6, `bot moved 10 px in 10 steps of 0.05 s at 20 px/s: x=${st.state.pose.position.x}`);

// step with the action, feedback after every step
const feedback = [];
const steps = new Action({ ros, name: '/simulate_steps', actionType: 'simulation_interfaces/action/SimulateSteps' });
const res = await new Promise((ok, fail) => steps.sendGoal({ steps: 5 }, ok, (fb) => feedback.push(fb), (e) => fail(new Error(e))));
check(res.result.result === 1, `action result ${JSON.stringify(res)}`);
check(feedback.length === 5 && feedback[4].completed_steps === 5 && feedback[4].remaining_steps === 0, `feedback ${JSON.stringify(feedback)}`);
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(Math.abs(st.state.pose.position.x - 55) < 1e-6, `after the action x=${st.state.pose.position.x}`);

// cancel a long goal; the server keeps serving meanwhile
const long = new Promise((ok) => {
  const id = steps.sendGoal({ steps: 100000000 }, () => ok('succeeded'), () => {}, (e) => ok(String(e)));
  setTimeout(() => steps.cancelGoal(id), 200);
});
const during = await call('/get_simulation_state', 'GetSimulationState', {});
check(during.result.result === 1, 'served while an action runs');
const outcome = await long;
check(outcome.includes('canceled'), `cancel: ${outcome}`);
await call('/set_entity_state', 'SetEntityState', { entity: 'bot', state: { pose: pose(40, 40) }, set_pose: true, set_twist: true });

// plan a path to a named pose, follow it while stepping
const plan = await call('/plan_path', 'PlanPath', { entity: 'bot', goal_name: 'dock_b', planner: 'birrt', time_limit: 5, seed: 3, follow: true, speed: 400 });
check(plan.result.result === 1 && plan.path.length >= 2, `plan: ${plan.result.error_message} ${plan.outcome}`);
r = await call('/step_simulation', 'StepSimulation', { steps: 400 });
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(Math.hypot(st.state.pose.position.x - 460, st.state.pose.position.y - 365) < 1e-6, `followed to dock_b: ${JSON.stringify(st.state.pose.position)}`);

// plan without following, then follow with the /follow_path action: feedback after every step
const back = await call('/plan_path', 'PlanPath', { entity: 'bot', goal: pose(40, 40), planner: 'birrt', time_limit: 5, seed: 5 });
check(back.result.result === 1 && back.path.length >= 2, `plan back: ${back.result.error_message} ${back.outcome}`);
const follow = new Action({ ros, name: '/follow_path', actionType: 'planbench_interfaces/action/FollowPath' });
const ffb = [];
const fres = await new Promise((ok, fail) => follow.sendGoal({ entity: 'bot', path: back.path, speed: 400 }, ok, (fb) => ffb.push(fb), (e) => fail(new Error(e))));
check(fres.result.result === 1 && Math.hypot(fres.pose.position.x - 40, fres.pose.position.y - 40) < 1e-6, `follow_path result ${JSON.stringify(fres)}`);
check(ffb.length >= 2 && ffb.length === fres.completed_steps && ffb.every((f, i) => f.completed_steps === i + 1) &&
  ffb.every((f, i) => i === 0 || f.distance_remaining <= ffb[i - 1].distance_remaining + 1e-9) && ffb[ffb.length - 1].distance_remaining === 0,
  `follow_path feedback: ${ffb.length} messages, ${JSON.stringify(ffb.slice(-2))}`);
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(Math.hypot(st.state.pose.position.x - 40, st.state.pose.position.y - 40) < 1e-6, `followed back: ${JSON.stringify(st.state.pose.position)}`);
// a slow goal is canceled while the server answers others
const slow = new Promise((ok) => {
  const id = follow.sendGoal({ entity: 'bot', path: [pose(40, 40), pose(100, 40)], speed: 0.01 }, () => ok('succeeded'), () => {}, (e) => ok(String(e)));
  setTimeout(() => follow.cancelGoal(id), 200);
});
const meanwhile = await call('/get_entity_state', 'GetEntityState', { entity: 'car' });
check(meanwhile.result.result === 1, 'served while following');
const slowOutcome = await slow;
check(slowOutcome.includes('canceled'), `follow cancel: ${slowOutcome}`);
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(st.state.pose.position.x > 40 && st.state.pose.position.x < 100, `canceled follower stopped on the way: ${st.state.pose.position.x}`);

// the stick arm plans base and elbow together; the plan's joint_positions are followed as they are
r = await call('/spawn_entity', 'SpawnEntity', { name: 'arm', entity_resource: { uri: 'model://stick_arm' }, initial_pose: { pose: pose(40, 120) } });
check(r.result.result === 1, `spawn arm: ${JSON.stringify(r)}`);
const armPlan = await call('/plan_path', 'PlanPath', { entity: 'arm', goal: pose(40, 120), goal_joints: [-0.8], planner: 'birrt', time_limit: 5, seed: 3 });
check(armPlan.result.result === 1 && JSON.stringify(armPlan.joint_names) === '["joint2"]' &&
  armPlan.joint_positions.length === armPlan.path.length && armPlan.joint_positions[0] === 0.8 &&
  Math.abs(armPlan.joint_positions[armPlan.joint_positions.length - 1] + 0.8) < 1e-9, `arm plan: ${JSON.stringify(armPlan).slice(0, 300)}`);
const armFb = [];
const armRes = await new Promise((ok, fail) => follow.sendGoal({ entity: 'arm', path: armPlan.path, joint_positions: armPlan.joint_positions, speed: 200 },
  ok, (fb) => armFb.push(fb), (e) => fail(new Error(e))));
check(armRes.result.result === 1 && Math.abs(armRes.joint_positions[0] + 0.8) < 1e-9 && armFb.every((f) => f.joint_positions.length === 1),
  `arm follow: ${JSON.stringify(armRes)}`);

// ---- issue 17: /clock, /tf, cmd_vel, rosapi, as ROS tools use them ----
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const until = async (cond, ms = 3000) => { const end = Date.now() + ms; while (!cond() && Date.now() < end) await sleep(10); return cond(); };
await call('/set_simulation_state', 'SetSimulationState', { state: { state: 2 } });
await call('/set_entity_state', 'SetEntityState', { entity: 'bot', state: { pose: pose(380, 300, 0.5) }, set_pose: true, set_twist: true });
const clocks = [], tfs = [];
const clockTopic = new Topic({ ros, name: '/clock', messageType: 'rosgraph_msgs/msg/Clock' });
clockTopic.subscribe((m) => clocks.push(m.clock.sec * 1e9 + m.clock.nanosec));
const tfTopic = new Topic({ ros, name: '/tf', messageType: 'tf2_msgs/msg/TFMessage' });
tfTopic.subscribe((m) => tfs.push(m));
await call('/get_simulation_state', 'GetSimulationState', {}); // the subscriptions are in
r = await call('/step_simulation', 'StepSimulation', { steps: 7 });
check(r.result.result === 1 && await until(() => clocks.length >= 7), `7 clock messages: ${clocks.length}`);
const ns = 50000000; // the world's step, 0.05 s, exactly
check(clocks.slice(1).every((t, i) => t - clocks[i] === ns) && clocks[6] - clocks[0] === 6 * ns, `/clock advances by exactly one step: ${clocks}`);
const botTf = (m) => m.transforms.find((t) => t.child_frame_id === 'bot/base_link');
const lastTf = tfs.length && botTf(tfs[tfs.length - 1]);
check(lastTf && lastTf.header.frame_id === 'map' && lastTf.transform.translation.x === 380 && lastTf.transform.translation.y === 300 &&
  Math.abs(2 * Math.atan2(lastTf.transform.rotation.z, lastTf.transform.rotation.w) - 0.5) < 1e-12,
  `/tf carries bot's pose after SetEntityState: ${JSON.stringify(lastTf)}`);
// a Twist on cmd_vel (body frame) moves the bot along its heading: 20 px/s for 10 steps is 10 px
const cmd = new Topic({ ros, name: '/bot/cmd_vel', messageType: 'geometry_msgs/msg/Twist' });
cmd.publish({ linear: { x: 20, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
await call('/step_simulation', 'StepSimulation', { steps: 10 });
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(Math.abs(st.state.pose.position.x - (380 + 10 * Math.cos(0.5))) < 1e-9 && Math.abs(st.state.pose.position.y - (300 + 10 * Math.sin(0.5))) < 1e-9,
  `cmd_vel moved bot 10 px along its heading: ${JSON.stringify(st.state.pose.position)}`);
// and into a wall: it stops there (the room's east wall is at x = 495)
r = await call('/set_entity_state', 'SetEntityState', { entity: 'bot', state: { pose: pose(440, 350, 0) }, set_pose: true, set_twist: true });
check(r.result.result === 1, `bot to (440, 350): ${r.result.error_message}`);
cmd.publish({ linear: { x: 400, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
await call('/step_simulation', 'StepSimulation', { steps: 20 });
st = await call('/get_entity_state', 'GetEntityState', { entity: 'bot' });
check(st.state.pose.position.x > 440 && st.state.pose.position.x < 495 - 7.9 && st.state.twist.linear.x === 0,
  `cmd_vel into the wall stops bot before it: ${JSON.stringify(st.state)}`);
clockTopic.unsubscribe();
tfTopic.unsubscribe();
// rosapi, as introspection tools use it: every topic and service has a type and a definition
const topicsInfo = await new Promise((ok, fail) => ros.getTopics(ok, fail));
check(['/clock', '/tf', '/tf_static', '/bot/odom', '/bot/cmd_vel', '/arm/joint_states'].every((t) => topicsInfo.topics.includes(t)),
  `rosapi topics: ${JSON.stringify(topicsInfo.topics)}`);
for (let i = 0; i < topicsInfo.topics.length; i++) {
  const type = await new Promise((ok, fail) => ros.getTopicType(topicsInfo.topics[i], ok, fail));
  const defs = await new Promise((ok, fail) => ros.getMessageDetails(type, ok, fail));
  check(type === topicsInfo.types[i] && defs.length >= 1 && defs[0].type === type, `rosapi ${topicsInfo.topics[i]}: ${type}, ${defs.length} typedefs`);
}
const servicesInfo = await new Promise((ok, fail) => ros.getServices(ok, fail));
for (const service of servicesInfo) {
  const type = await new Promise((ok, fail) => ros.getServiceType(service, ok, fail));
  const req = await new Promise((ok, fail) => ros.getServiceRequestDetails(type, ok, fail));
  check(type !== '' && req.typedefs.length >= 1, `rosapi ${service}: ${type}`);
}
const params = await new Promise((ok, fail) => ros.getParams(ok, fail));
check(params.includes('/planbench_sim:time_step'), `rosapi params: ${params}`);

// joints of an entity's state: /set_entity_joints, then /arm/joint_states after a step
const callPb = (name, type, req) => new Promise((ok, fail) =>
  new Service({ ros, name, serviceType: 'planbench_interfaces/srv/' + type }).callService(req, ok, (m) => fail(new Error(m))));
const jointMsgs = [];
const jointTopic = new Topic({ ros, name: '/arm/joint_states', messageType: 'sensor_msgs/msg/JointState' });
jointTopic.subscribe((m) => jointMsgs.push(m));
r = await callPb('/set_entity_joints', 'SetEntityJoints', { entity: 'arm', joint_names: ['joint2'], positions: [0.3] });
check(r.result.result === 1, `set arm joints: ${r.result.error_message}`);
await call('/step_simulation', 'StepSimulation', { steps: 1 });
check(await until(() => jointMsgs.length >= 1) && jointMsgs[0].name[0] === 'joint2' && jointMsgs[0].position[0] === 0.3 &&
  jointMsgs[0].header.frame_id === 'arm/base_link', `/arm/joint_states: ${JSON.stringify(jointMsgs[0])}`);
const got = await callPb('/get_entity_joints', 'GetEntityJoints', { entity: 'arm' });
check(got.positions[0] === 0.3, `get arm joints: ${JSON.stringify(got)}`);
jointTopic.unsubscribe();

// transport failure form
const unknown = await call('/no_such_service', 'X', {}).then(() => 'ok', (e) => e.message);
check(unknown.includes('does not exist'), `unknown service: ${unknown}`);

// delete, then reset everything
r = await call('/delete_entity', 'DeleteEntity', { entity: 'car' });
check(r.result.result === 1, 'delete car');
r = await call('/reset_simulation', 'ResetSimulation', { scope: 255 });
check(r.result.result === 1, 'reset all');
const after = await call('/get_entities', 'GetEntities', {});
check(JSON.stringify(after.entities) === '["crate_1"]', `after reset only the world's crate: ${JSON.stringify(after.entities)}`);
const state = await call('/get_simulation_state', 'GetSimulationState', {});
check(state.state.state === 0, 'reset ALL ends STOPPED');
check(events.some((e) => e.event === 'created' && e.entity === 'bot') && events.some((e) => e.event === 'deleted' && e.entity === 'car'),
  `events: ${JSON.stringify(events)}`);

// a pose goal for a manipulator scene's arm: the final joints of the plan put the tool frame at
// the goal, checked here by forward kinematics from the URDF itself (not by the server)
const worlds = await call('/get_available_worlds', 'GetAvailableWorlds', {});
const armWorld = worlds.worlds.find((w) => w.name === 'arm_table');
check(armWorld !== undefined, `arm_table among the worlds: ${JSON.stringify(worlds.worlds.map((w) => w.uri))}`);
if (armWorld) {
  r = await call('/load_world', 'LoadWorld', { world_resource: { uri: armWorld.world_resource.uri, resource_string: '' } });
  if (r.result.result !== 1 && r.result.error_message.includes('manipulator engine')) {
    console.log('e2e: no manipulator engine in this build, the pose-goal check is skipped');
  } else {
    check(r.result.result === 1, `load arm_table: ${r.result.error_message}`);
    const goal = { position: { x: 0.6, y: -0.3, z: 0.45 }, orientation: { x: 1, y: 0, z: 0, w: 0 } }; // tool pointing down
    const arm = await call('/plan_path', 'PlanPath', { entity: 'arm', goal, planner: 'birrt', time_limit: 10, seed: 5 });
    check(arm.result.result === 1 && arm.joint_positions.length === arm.path.length * arm.joint_names.length,
      `arm pose goal: ${arm.result.error_message} ${arm.outcome}`);
    if (arm.result.result === 1) {
      const { DOMParser } = await import('@xmldom/xmldom');
      const { readFileSync } = await import('node:fs');
      const urdf = new DOMParser().parseFromString(readFileSync(new URL('../../robots/pbarm6.urdf', import.meta.url), 'utf8'), 'text/xml');
      const joints = {};
      for (const j of Array.from(urdf.getElementsByTagName('joint'))) {
        const child = j.getElementsByTagName('child')[0].getAttribute('link');
        const origin = j.getElementsByTagName('origin')[0];
        const axis = j.getElementsByTagName('axis')[0];
        check(!origin || !origin.getAttribute('rpy'), `joint ${j.getAttribute('name')}: this test reads origins without rpy`);
        joints[child] = { name: j.getAttribute('name'), type: j.getAttribute('type'), parent: j.getElementsByTagName('parent')[0].getAttribute('link'),
          xyz: (origin ? origin.getAttribute('xyz') : '0 0 0').split(/\s+/).map(Number), axis: (axis ? axis.getAttribute('xyz') : '1 0 0').split(/\s+/).map(Number) };
      }
      const chain = [];
      for (let link = 'tool'; joints[link]; link = joints[link].parent) chain.unshift(joints[link]);
      const n = arm.joint_names.length, last = arm.joint_positions.slice(arm.joint_positions.length - n);
      const q = Object.fromEntries(arm.joint_names.map((name, i) => [name, last[i]]));
      const mul = (A, B) => A.map((row) => [0, 1, 2].map((c) => row[0] * B[0][c] + row[1] * B[1][c] + row[2] * B[2][c]));
      const rot = ([x, y, z], a) => { // Rodrigues: rotation by a about the unit axis (x, y, z)
        const c = Math.cos(a), s = Math.sin(a), v = 1 - c;
        return [[c + x * x * v, x * y * v - z * s, x * z * v + y * s], [y * x * v + z * s, c + y * y * v, y * z * v - x * s],
          [z * x * v - y * s, z * y * v + x * s, c + z * z * v]];
      };
      let R = [[1, 0, 0], [0, 1, 0], [0, 0, 1]], p = [0, 0, 0];
      for (const j of chain) {
        p = [0, 1, 2].map((i) => p[i] + R[i][0] * j.xyz[0] + R[i][1] * j.xyz[1] + R[i][2] * j.xyz[2]);
        if (j.type === 'revolute' || j.type === 'continuous') R = mul(R, rot(j.axis, q[j.name]));
      }
      const dp = Math.hypot(p[0] - 0.6, p[1] + 0.3, p[2] - 0.45);
      // the goal's rotation is Rx(pi): diag(1, -1, -1)
      const dR = Math.max(Math.abs(R[0][0] - 1), Math.abs(R[1][1] + 1), Math.abs(R[2][2] + 1), Math.abs(R[0][1]), Math.abs(R[1][0]),
        Math.abs(R[0][2]), Math.abs(R[2][0]), Math.abs(R[1][2]), Math.abs(R[2][1]));
      check(chain.length >= 7 && dp < 2e-4 && dR < 2e-3, `the plan's last joints put the tool at the goal: ${dp} m, ${dR} (${chain.length} joints)`);
    }
  }
}

topic.unsubscribe();
ros.close();
clearTimeout(deadline);
console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
