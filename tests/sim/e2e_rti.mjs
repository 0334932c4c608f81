// End-to-end test of the RTI entity channels (issue 20) with two real roslib clients: a foreign
// command is refused and the entity does not move; transfer; two assumes on the same step give
// one owner; the owner's disconnect releases its entities; an entity's creation precedes its
// positions; a receiver that dead-reckons from /rti/position (as docs/sim.md says) stays within
// the tolerance of the true poses (/entity_states, every step) over a slalom.
// Usage: node e2e_rti.mjs PORT. Exits 0 when every check passes; every wait is bounded.
import { Ros, Service, Topic } from 'roslib';

const port = process.argv[2];
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error('CHECK failed:', what); } };
const deadline = setTimeout(() => { console.error('e2e_rti: timed out'); process.exit(1); }, 40000);
const connect = async () => {
  const ros = new Ros({ url: `ws://127.0.0.1:${port}` });
  await new Promise((ok, fail) => { ros.on('connection', ok); ros.on('error', fail); });
  return ros;
};
const a = await connect(), b = await connect();
const call = (ros, name, type, req) => new Promise((ok, fail) =>
  new Service({ ros, name, serviceType: type }).callService(req, ok, (m) => fail(new Error(m))));
const SI = 'simulation_interfaces/srv/';
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const until = async (cond, ms) => { const t0 = Date.now(); while (!cond() && Date.now() - t0 < ms) await sleep(20); };
const pose = (x, y, yaw = 0) => ({ position: { x, y, z: 0 }, orientation: { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) } });
const idA = (await call(a, '/rti/get_client_id', 'planbench_interfaces/srv/GetClientId', {})).client_id;
const idB = (await call(b, '/rti/get_client_id', 'planbench_interfaces/srv/GetClientId', {})).client_id;
check(/^client\d+$/.test(idA) && /^client\d+$/.test(idB) && idA !== idB, `client ids ${idA} ${idB}`);

// B listens on the channels, in arrival order
const seen = [];
const entityB = new Topic({ ros: b, name: '/rti/entity', messageType: 'planbench_interfaces/msg/Entity' });
entityB.subscribe((m) => seen.push({ kind: 'entity', m }));
const positionB = new Topic({ ros: b, name: '/rti/position', messageType: 'planbench_interfaces/msg/EntityPosition' });
positionB.subscribe((m) => seen.push({ kind: 'position', m }));
// the room world (the clients before this one may have loaded another)
const world = await call(a, '/load_world', SI + 'LoadWorld', { uri: 'world://room1', resource_string: '' });
check(world.result.result === 1, `load room1: ${world.result.error_message}`);
await call(b, '/get_simulation_state', SI + 'GetSimulationState', {}); // a round trip: subscribed
await call(a, '/set_simulation_state', SI + 'SetSimulationState', { state: { state: 2 } });
const spawn = (ros, name, x, y) => call(ros, '/spawn_entity', SI + 'SpawnEntity', { name, allow_renaming: false,
  entity_resource: { uri: 'model://disc_robot', resource_string: '' }, initial_pose: { pose: pose(x, y) } });
let r = await spawn(a, 'rover', 60, 60);
check(r.result.result === 1, `A spawns rover: ${r.result.error_message}`);
await until(() => seen.some((s) => s.kind === 'position' && s.m.id === 'rover'), 3000);
const firstEntity = seen.findIndex((s) => s.m.id === 'rover' && s.kind === 'entity');
const firstPosition = seen.findIndex((s) => s.m.id === 'rover' && s.kind === 'position');
check(firstEntity >= 0 && firstEntity < firstPosition, `the Entity comes before any position: ${firstEntity} ${firstPosition}`);
const created = seen[firstEntity]?.m;
check(created && created.owner_client_id === idA && created.position && created.position.local.x === 60 && !created.deleted &&
  created.dimensions.length > 0, `rover's Entity: owned by A, with its position: ${JSON.stringify(created).slice(0, 200)}`);
const latest = (id) => [...seen].reverse().find((s) => s.kind === 'entity' && s.m.id === id)?.m;
check(latest('crate_1')?.owner_client_id === 'server' && !latest('crate_1')?.deleted,
  `the world file's crate_1 is on /rti/entity, owned by the server: ${JSON.stringify(latest('crate_1'))?.slice(0, 120)}`);

// a foreign command is refused: B's SetEntityState and cmd_vel leave rover where it is
r = await call(b, '/set_entity_state', SI + 'SetEntityState', { entity: 'rover', state: { pose: pose(80, 60) }, set_pose: true });
check(r.result.result === 4 && r.result.error_message.includes(idA), `B's SetEntityState refused naming A: ${JSON.stringify(r.result)}`);
const cmdB = new Topic({ ros: b, name: '/rover/cmd_vel', messageType: 'geometry_msgs/msg/Twist' });
cmdB.publish({ linear: { x: 20, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
await call(b, '/step_simulation', SI + 'StepSimulation', { steps: 10 });
let st = await call(a, '/get_entity_state', SI + 'GetEntityState', { entity: 'rover' });
check(st.state.pose.position.x === 60, `B's cmd_vel moved nothing: x=${st.state.pose.position.x}`);
r = await call(b, '/delete_entity', SI + 'DeleteEntity', { entity: 'rover' });
check(r.result.result === 4, `B cannot delete A's rover: ${JSON.stringify(r.result)}`);

// transfer to B: now B's commands move it and A's are refused
const opsA = new Topic({ ros: a, name: '/rti/entities', messageType: 'planbench_interfaces/msg/EntityOperation' });
const opsB = new Topic({ ros: b, name: '/rti/entities', messageType: 'planbench_interfaces/msg/EntityOperation' });
opsA.publish({ transfer_ownership: { entity_id: 'rover', client_id: idB } });
await until(() => latest('rover')?.owner_client_id === idB, 3000);
check(latest('rover')?.owner_client_id === idB, `transferred to B: ${JSON.stringify(latest('rover')).slice(0, 120)}`);
cmdB.publish({ linear: { x: 20, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
await call(b, '/step_simulation', SI + 'StepSimulation', { steps: 10 });
st = await call(a, '/get_entity_state', SI + 'GetEntityState', { entity: 'rover' });
check(st.state.pose.position.x > 60, `B's cmd_vel moves it now: x=${st.state.pose.position.x}`);
r = await call(a, '/set_entity_state', SI + 'SetEntityState', { entity: 'rover', state: { pose: pose(60, 60), twist: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } }, set_pose: true, set_twist: true });
check(r.result.result === 4 && r.result.error_message.includes(idB), `A's SetEntityState refused now: ${JSON.stringify(r.result)}`);
r = await call(b, '/set_entity_state', SI + 'SetEntityState', { entity: 'rover', state: { pose: pose(60, 60), twist: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } }, set_pose: true, set_twist: true });
check(r.result.result === 1, `B, its owner, sets its state: ${JSON.stringify(r.result)}`);

// B releases; A and B assume in the same breath: exactly one owner
opsB.publish({ release_ownership: { entity_id: 'rover', client_id: idB } });
await until(() => latest('rover')?.owner_client_id === 'server', 3000);
check(latest('rover')?.owner_client_id === 'server', 'released to the server');
const before = seen.length;
opsA.publish({ assume_ownership: { entity_id: 'rover', client_id: idA } });
opsB.publish({ assume_ownership: { entity_id: 'rover', client_id: idB } });
await sleep(300);
await call(a, '/get_simulation_state', SI + 'GetSimulationState', {});
await call(b, '/get_simulation_state', SI + 'GetSimulationState', {});
const changes = seen.slice(before).filter((s) => s.kind === 'entity' && s.m.id === 'rover').map((s) => s.m.owner_client_id);
check(changes.length === 1 && (changes[0] === idA || changes[0] === idB), `one assume won: ${changes}`);
const winner = changes[0];

// the owner disconnects: its entities are released, and say so
const winnerRos = winner === idA ? a : b;
const other = winner === idA ? b : a;
if (winner === idB) { // B is the listener: swap roles by subscribing A as well
  const entityA = new Topic({ ros: a, name: '/rti/entity', messageType: 'planbench_interfaces/msg/Entity' });
  entityA.subscribe((m) => seen.push({ kind: 'entity', m }));
  await call(a, '/get_simulation_state', SI + 'GetSimulationState', {});
}
winnerRos.close();
await until(() => latest('rover')?.owner_client_id === 'server', 3000);
check(latest('rover')?.owner_client_id === 'server', `the owner's disconnect released rover: ${latest('rover')?.owner_client_id}`);

// the server's entity is claimed; then only its new owner publishes its position
const opsOther = new Topic({ ros: other, name: '/rti/entities', messageType: 'planbench_interfaces/msg/EntityOperation' });
opsOther.publish({ claim_ownership: { entity_id: 'rover' } });
const otherId = winner === idA ? idB : idA;
await until(() => latest('rover')?.owner_client_id === otherId, 3000);
check(latest('rover')?.owner_client_id === otherId, `claimed by ${otherId}: ${latest('rover')?.owner_client_id}`);
const c3 = await connect();
const posC = new Topic({ ros: c3, name: '/rti/position', messageType: 'planbench_interfaces/msg/EntityPosition' });
const there = (x) => ({ id: 'rover', local: { x, y: 60, z: 0 }, local_rotation: { x: 0, y: 0, z: 0, w: 1 },
  velocity: { forward: 0, right: 0, up: 0 }, angular_velocity: { roll: 0, pitch: 0, yaw: 0 } });
posC.publish(there(90));
await call(c3, '/get_simulation_state', SI + 'GetSimulationState', {});
st = await call(other, '/get_entity_state', SI + 'GetEntityState', { entity: 'rover' });
check(st.state.pose.position.x !== 90, `a non-owner's position moves nothing: x=${st.state.pose.position.x}`);
const posOther = new Topic({ ros: other, name: '/rti/position', messageType: 'planbench_interfaces/msg/EntityPosition' });
posOther.publish(there(62));
await call(other, '/get_simulation_state', SI + 'GetSimulationState', {});
st = await call(other, '/get_entity_state', SI + 'GetEntityState', { entity: 'rover' });
check(st.state.pose.position.x === 62, `its owner's position moves it: x=${st.state.pose.position.x}`);

// a throttled subscriber (throttle_rate 300 ms, queue_length 10) gets fewer positions, and the latest
const throttled = [];
const posThrottled = new Topic({ ros: c3, name: '/rti/position', messageType: 'planbench_interfaces/msg/EntityPosition',
  throttle_rate: 300, queue_length: 10 });
posThrottled.subscribe((m) => { if (m.id === 'slalom') throttled.push(m); });
await call(c3, '/get_simulation_state', SI + 'GetSimulationState', {});

// dead reckoning over a slalom: the other client spawns and drives; every true pose (from
// /entity_states after every step) is within the tolerance of the receiver's extrapolation
const positions = [], truth = [];
const positionO = new Topic({ ros: other, name: '/rti/position', messageType: 'planbench_interfaces/msg/EntityPosition' });
positionO.subscribe((m) => { if (m.id === 'slalom') positions.push(m); });
const statesO = new Topic({ ros: other, name: '/entity_states', messageType: 'planbench_interfaces/msg/EntityStates' });
statesO.subscribe((m) => { const i = m.entities.indexOf('slalom'); if (i >= 0) truth.push({ t: m.stamp.sec + m.stamp.nanosec * 1e-9, pose: m.states[i].pose }); });
r = await spawn(other, 'slalom', 120, 100);
check(r.result.result === 1, `spawn slalom: ${r.result.error_message}`);
const cmd = new Topic({ ros: other, name: '/slalom/cmd_vel', messageType: 'geometry_msgs/msg/Twist' });
const N = 8, STEPS = 25;
for (let k = 0; k < N; k++) {
  cmd.publish({ linear: { x: 30, y: 0, z: 0 }, angular: { x: 0, y: 0, z: k % 2 ? -1.2 : 1.2 } });
  await call(other, '/get_simulation_state', SI + 'GetSimulationState', {}); // the command is in
  await call(other, '/step_simulation', SI + 'StepSimulation', { steps: STEPS });
}
await until(() => truth.length >= N * STEPS, 5000);
const stamp = (m) => m.stamp.sec + m.stamp.nanosec * 1e-9;
const yawOf = (q) => Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
let worstPos = 0, worstYaw = 0, used = 0;
for (const s of truth) {
  const last = [...positions].reverse().find((p) => stamp(p) <= s.t + 1e-9);
  if (!last) continue;
  used++;
  const dt = s.t - stamp(last), q = last.local_rotation, yaw0 = yawOf(q);
  const f = last.velocity.forward * dt + 0.5 * last.acceleration.forward * dt * dt;
  const l = -(last.velocity.right * dt + 0.5 * last.acceleration.right * dt * dt);
  const x = last.local.x + Math.cos(yaw0) * f - Math.sin(yaw0) * l, y = last.local.y + Math.sin(yaw0) * f + Math.cos(yaw0) * l;
  const yaw = yaw0 + last.angular_velocity.yaw * Math.PI / 180 * dt;
  worstPos = Math.max(worstPos, Math.hypot(x - s.pose.position.x, y - s.pose.position.y));
  let dy = yaw - yawOf(s.pose.orientation); dy = Math.atan2(Math.sin(dy), Math.cos(dy));
  worstYaw = Math.max(worstYaw, Math.abs(dy));
}
check(used >= N * STEPS - 1, `every step's true pose compared: ${used} of ${truth.length}`);
check(worstPos <= 0.01 + 1e-9 && worstYaw <= 0.5 * Math.PI / 180 + 1e-9, `dead reckoning within 0.01 and 0.5 deg: ${worstPos}, ${worstYaw * 180 / Math.PI} deg`);
check(positions.length < truth.length, `fewer positions than steps: ${positions.length} for ${truth.length}`);
await sleep(700); // the throttled subscriber's held message is due
const lastOf = (list) => list.length ? JSON.stringify(list[list.length - 1].local) : 'none';
check(throttled.length >= 1 && throttled.length < positions.length && lastOf(throttled) === lastOf(positions),
  `throttled: ${throttled.length} of ${positions.length} positions, the latest last: ${lastOf(throttled)} ${lastOf(positions)}`);

// bad operations: unknown entity, transfer to nobody: no change
const ownerBefore = latest('slalom')?.owner_client_id;
const opsO = new Topic({ ros: other, name: '/rti/entities', messageType: 'planbench_interfaces/msg/EntityOperation' });
opsO.publish({ transfer_ownership: { entity_id: 'slalom', client_id: 'client9999' } });
opsO.publish({ assume_ownership: { entity_id: 'no_such_entity' } });
await call(other, '/get_simulation_state', SI + 'GetSimulationState', {});
await sleep(200);
check(latest('slalom')?.owner_client_id === ownerBefore, `bad operations change nothing: ${ownerBefore}`);
r = await call(other, '/delete_entity', SI + 'DeleteEntity', { entity: 'slalom' });
await until(() => latest('slalom')?.deleted === true, 2000);
check(latest('slalom')?.deleted === true, 'deleted is its last message');
// a vehicle's state at its own rate (0.1 s of sim time): gear, speed, signal and blink phase
const w = await call(other, '/load_world', SI + 'LoadWorld', { uri: 'world://wall40', resource_string: '' });
check(w.result.result === 1, `load wall40: ${w.result.error_message}`);
const vstates = [];
const vsTopic = new Topic({ ros: other, name: '/rti/vehiclestate', messageType: 'planbench_interfaces/msg/VehicleState' });
vsTopic.subscribe((m) => vstates.push(m));
r = await call(other, '/spawn_entity', SI + 'SpawnEntity', { name: 'ego', allow_renaming: false,
  entity_resource: { uri: 'model://lexus_rx450h', resource_string: '' }, initial_pose: { pose: pose(5, 35) } });
check(r.result.result === 1, `spawn the Lexus: ${r.result.error_message}`);
const stampZ = { sec: 0, nanosec: 0 };
new Topic({ ros: other, name: '/ego/control/command/gear_cmd', messageType: 'autoware_vehicle_msgs/msg/GearCommand' }).publish({ stamp: stampZ, command: 2 });
new Topic({ ros: other, name: '/ego/control/command/turn_indicators_cmd', messageType: 'autoware_vehicle_msgs/msg/TurnIndicatorsCommand' }).publish({ stamp: stampZ, command: 2 });
new Topic({ ros: other, name: '/ego/control/command/control_cmd', messageType: 'autoware_control_msgs/msg/Control' }).publish({ stamp: stampZ, control_time: stampZ,
  lateral: { stamp: stampZ, steering_tire_angle: 0.0, steering_tire_rotation_rate: 0, is_defined_steering_tire_rotation_rate: false },
  longitudinal: { stamp: stampZ, velocity: 3.0, acceleration: 1.0, jerk: 0, is_defined_acceleration: true, is_defined_jerk: false } });
await call(other, '/get_simulation_state', SI + 'GetSimulationState', {});
await call(other, '/step_simulation', SI + 'StepSimulation', { steps: 20 }); // 1 s at 0.05 s
await until(() => vstates.filter((m) => m.id === 'ego').length >= 10, 3000);
const ego = vstates.filter((m) => m.id === 'ego');
const ts = ego.map((m) => m.stamp.sec + m.stamp.nanosec * 1e-9);
check(ego.length >= 10 && ts.every((t, i) => i === 0 || Math.abs(t - ts[i - 1] - 0.1) < 1e-6),
  `a vehicle state every 0.1 s: ${ts.slice(0, 4)} (${ego.length})`);
const lastV = ego[ego.length - 1];
check(lastV && lastV.gear === 'DRIVE' && lastV.signal === 'LEFT' && Math.abs(lastV.speed - 1.0) < 0.051 && !lastV.brake_light &&
  ego.some((m) => m.blink) && ego.some((m) => !m.blink), `gear, signal, blink, speed: ${JSON.stringify(lastV)}`);
other.close();
c3.close();
clearTimeout(deadline);
console.log(`e2e_rti: ${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
