// End-to-end test of a vehicle (issue 18) in `planbench serve` with the real roslib 2.x client:
// load worlds/sim_wall40.xml, spawn AWSIM's Lexus, drive it with Autoware's gear_cmd and
// control_cmd topics, and see its vehicle/status topics and its pose change.
// Usage: node e2e_vehicle.mjs PORT. Exits 0 when every check passes; every wait is bounded.
import { Ros, Service, Topic } from 'roslib';

const port = process.argv[2];
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error('CHECK failed:', what); } };
const deadline = setTimeout(() => { console.error('e2e_vehicle: timed out'); process.exit(1); }, 30000);

const ros = new Ros({ url: `ws://127.0.0.1:${port}` });
await new Promise((ok, fail) => { ros.on('connection', ok); ros.on('error', fail); });
const SI = 'simulation_interfaces/srv/';
const call = (name, type, req) => new Promise((ok, fail) =>
  new Service({ ros, name, serviceType: SI + type }).callService(req, ok, (m) => fail(new Error(m))));
const pose = (x, y, yaw = 0) => ({ position: { x, y, z: 0 }, orientation: { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) } });
const stamp = { sec: 0, nanosec: 0 };

let r = await call('/load_world', 'LoadWorld', { world_resource: { uri: 'world://wall40', resource_string: '' } });
check(r.result.result === 1, `load wall40: ${r.result.error_message}`);
r = await call('/spawn_entity', 'SpawnEntity', { name: 'ego', entity_resource: { uri: 'model://lexus_rx450h', resource_string: '' },
  initial_pose: { header: { stamp, frame_id: '' }, pose: pose(5, 35) } });
check(r.result.result === 1 && r.entity_name === 'ego', `spawn the Lexus: ${JSON.stringify(r.result)}`);

const velocity = [], gears = [];
const velocityTopic = new Topic({ ros, name: '/ego/vehicle/status/velocity_status', messageType: 'autoware_vehicle_msgs/msg/VelocityReport' });
velocityTopic.subscribe((m) => velocity.push(m));
const gearTopic = new Topic({ ros, name: '/ego/vehicle/status/gear_status', messageType: 'autoware_vehicle_msgs/msg/GearReport' });
gearTopic.subscribe((m) => gears.push(m));

const gearCmd = new Topic({ ros, name: '/ego/control/command/gear_cmd', messageType: 'autoware_vehicle_msgs/msg/GearCommand' });
const controlCmd = new Topic({ ros, name: '/ego/control/command/control_cmd', messageType: 'autoware_control_msgs/msg/Control' });
gearCmd.publish({ stamp, command: 2 }); // DRIVE
controlCmd.publish({ stamp, control_time: stamp,
  lateral: { stamp, steering_tire_angle: 0.05, steering_tire_rotation_rate: 0.0, is_defined_steering_tire_rotation_rate: false },
  longitudinal: { stamp, velocity: 3.0, acceleration: 1.5, jerk: 0.0, is_defined_acceleration: true, is_defined_jerk: false } });

r = await call('/set_simulation_state', 'SetSimulationState', { state: { state: 2 } });
check(r.result.result === 1, 'pause');
r = await call('/step_simulation', 'StepSimulation', { steps: 20 });
check(r.result.result === 1, 'step 20');
const until = async (cond, ms) => { const t0 = Date.now(); while (!cond() && Date.now() - t0 < ms) await new Promise((ok) => setTimeout(ok, 20)); };
await until(() => velocity.some((m) => m.longitudinal_velocity > 1.4), 5000);
const last = velocity[velocity.length - 1];
check(velocity.length >= 20, `a velocity_status per step: ${velocity.length}`);
check(last && Math.abs(last.longitudinal_velocity - 1.5) < 1e-6 && last.lateral_velocity === 0 && last.header.frame_id === 'ego/base_link',
  `velocity_status after 1 s at 1.5 m/s^2: ${JSON.stringify(last)}`);
check(gears.length > 0 && gears[gears.length - 1].report === 2, `gear_status DRIVE: ${JSON.stringify(gears[gears.length - 1])}`);
const st = await call('/get_entity_state', 'GetEntityState', { entity: 'ego' });
check(st.state.pose.position.x > 5.7 && st.state.pose.orientation.z > 0, `the pose changed (forward, turning left): ${JSON.stringify(st.state.pose)}`);
check(Math.abs(Math.hypot(st.state.acceleration.linear.x, st.state.acceleration.linear.y)) > 1.5, `EntityState acceleration: ${JSON.stringify(st.state.acceleration)}`);

velocityTopic.unsubscribe();
gearTopic.unsubscribe();
ros.close();
clearTimeout(deadline);
console.log(`e2e_vehicle: ${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
