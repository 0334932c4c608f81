// End-to-end test of the auto_scene_gen worker (issue 19) in `planbench serve` with the real
// roslib client: subscribe to /asg_worker0/status and /asg_worker0/analyze_scenario, call
// /asg_worker0/services/run_scenario with the bundled BACRE scenario (its files relative to the
// worlds folder), get `received` at once, then the AnalyzeScenario request (success, a trajectory
// of sim-time stamps, vehicle_sim_time their span) and the status back to ONLINE_AND_READY; a bad
// request (a negative goal radius) gets an error reply naming the field, and the worker still
// runs the next scenario.
// Usage: node e2e_scenario.mjs PORT SOURCE_ROOT. Exits 0 when every check passes; every wait is bounded.
import { readFileSync } from 'node:fs';
import { Ros, Service, Topic, Action } from 'roslib';

const [port, root] = process.argv.slice(2);
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error('CHECK failed:', what); } };
const deadline = setTimeout(() => { console.error('e2e_scenario: timed out'); process.exit(1); }, 50000);

const ros = new Ros({ url: `ws://127.0.0.1:${port}` });
await new Promise((ok, fail) => { ros.on('connection', ok); ros.on('error', fail); });
const statuses = [], results = [], vehicle = [];
const vehicleTopic = new Topic({ ros, name: '/asg_worker0/vehicle_status', messageType: 'auto_scene_gen_msgs/msg/VehicleStatus' });
vehicleTopic.subscribe((m) => vehicle.push(m.enabled));
const statusTopic = new Topic({ ros, name: '/asg_worker0/status', messageType: 'auto_scene_gen_msgs/msg/StatusCode' });
statusTopic.subscribe((m) => statuses.push(m.status));
const resultTopic = new Topic({ ros, name: '/asg_worker0/analyze_scenario', messageType: 'planbench_interfaces/msg/AnalyzeScenario' });
resultTopic.subscribe((m) => results.push(m));
const until = async (cond, ms) => { const t0 = Date.now(); while (!cond() && Date.now() - t0 < ms) await new Promise((ok) => setTimeout(ok, 20)); };
await until(() => statuses.length > 0, 3000);
check(statuses[0] === 1, `the worker is ONLINE_AND_READY when one subscribes: ${statuses}`);

const run = new Service({ ros, name: '/asg_worker0/services/run_scenario', serviceType: 'auto_scene_gen_msgs/srv/RunScenario' });
const call = (req) => new Promise((ok) => run.callService(req, (r) => ok({ ok: true, r }), (e) => ok({ ok: false, e })));
const request = JSON.parse(readFileSync(`${root}/worlds/scenario_bacre.json`, 'utf8'));
request.scenario_number = 42;

const bad = await call({ ...request, goal_radius: -5 });
check(!bad.ok && /goal_radius/.test(bad.e), `a negative goal radius: an error naming it: ${JSON.stringify(bad)}`);

const first = await call(request);
check(first.ok && first.r.received === true, `received: ${JSON.stringify(first)}`);
await until(() => results.length > 0, 10000);
const a = results[0];
check(a && a.scenario_number === 42 && a.worker_id === 0, `the AnalyzeScenario request: ${a && a.scenario_number}`);
check(a && a.termination_reason === 0 && a.planbench.termination === 'REASON_SUCCESS', `success: ${a && a.termination_reason}`);
if (a) {
  const t = a.vehicle_trajectory.map((o) => o.header.stamp.sec + o.header.stamp.nanosec * 1e-9);
  check(t.length > 10 && t[0] === 0 && t.every((v, i) => i === 0 || v > t[i - 1]), 'sim-time stamps from 0, increasing');
  check(Math.abs(a.vehicle_sim_time - (t[t.length - 1] - t[0])) < 1e-6, `vehicle_sim_time is their span: ${a.vehicle_sim_time}`);
}
await until(() => statuses.includes(2) && statuses[statuses.length - 1] === 1, 3000);
check(statuses.includes(2) && statuses[statuses.length - 1] === 1, `RUNNING, then READY again: ${statuses}`);

const second = await call({ ...request, scenario_number: 43, sim_timeout_period: 3 });
check(second.ok, 'the worker takes the next scenario');
await until(() => results.length > 1, 10000);
check(results[1] && results[1].scenario_number === 43 && results[1].termination_reason === 3, `a timeout: ${results[1] && results[1].termination_reason}`);

await until(() => vehicle.length >= 4, 3000); // published just after the result
check(vehicle.length >= 4 && vehicle[0] === true && vehicle[1] === false, `VehicleStatus enabled, then not: ${vehicle}`);

// the vehicle node's services: register, then ask for a rerun of the last scenario
const svc = (name, type) => new Service({ ros, name: `/asg_worker0/services/${name}`, serviceType: `auto_scene_gen_msgs/srv/${type}` });
const callSvc = (s, req) => new Promise((ok) => s.callService(req, (r) => ok({ ok: true, r }), (e) => ok({ ok: false, e })));
let r = await callSvc(svc('register_vehicle_node', 'RegisterVehicleNode'), { worker_id: 0, node_name: 'vehicle_node' });
check(r.ok && r.r.received, `register_vehicle_node: ${JSON.stringify(r)}`);
r = await callSvc(svc('register_vehicle_node', 'RegisterVehicleNode'), { worker_id: 3, node_name: 'vehicle_node' });
check(!r.ok && /worker_id/.test(r.e), `another worker's id is refused: ${JSON.stringify(r)}`);
r = await callSvc(svc('notify_ready', 'NotifyReady'), { worker_id: 0, node_name: 'vehicle_node', last_scenario_number: 43,
  request_rerun: true, reason_for_rerun: 'the test asks' });
check(r.ok && r.r.received && r.r.accepted, `notify_ready with a rerun: ${JSON.stringify(r)}`);
await until(() => results.length > 2, 10000);
check(results[2] && results[2].scenario_number === 43, 'the rerun ran the last scenario again');
r = await callSvc(svc('worker_issue_notification', 'WorkerIssueNotification'), { worker_id: 0, issue_id: 1, message: 'a test' });
check(r.ok && r.r.received, 'worker_issue_notification');
// introspection names the worker's services and its action
const rosapi = (name, type) => new Promise((ok) => new Service({ ros, name: `/rosapi/${name}`, serviceType: `rosapi_msgs/srv/${type}` })
  .callService({}, ok, (e) => ok({ error: String(e) })));
const servers = await rosapi('action_servers', 'GetActionServers');
check(servers.action_servers && servers.action_servers.includes('/asg_worker0/run_scenario_action'), `rosapi action_servers: ${JSON.stringify(servers)}`);
const services = await rosapi('services', 'Services');
check(services.services && services.services.includes('/asg_worker0/services/run_scenario'), 'rosapi services list the worker\'s');

// the action: the same request as a goal, feedback once per second of sim time, the
// AnalyzeScenario request as the result (and on the topic as well)
const action = new Action({ ros, name: '/asg_worker0/run_scenario_action', actionType: 'planbench_interfaces/action/RunScenario' });
const sendGoal = (goal, feedback) => new Promise((ok) => {
  const id = action.sendGoal(goal, (v) => ok({ ok: true, v, id }), (f) => feedback.push(f), (e) => ok({ ok: false, e: String(e), id }));
});
const fb = [];
const nBefore = results.length;
const done = await sendGoal({ ...request, scenario_number: 50 }, fb);
check(done.ok && done.v.scenario_number === 50 && done.v.termination_reason === 0, `the action's result: ${JSON.stringify(done).slice(0, 200)}`);
check(fb.length >= 3 && fb.every((f, i) => Math.abs(f.sim_time - (i + 1)) < 1e-9 && f.steps === 100 * (i + 1)),
  `feedback once per second of sim time: ${JSON.stringify(fb.slice(0, 3))}`);
if (done.ok) {
  check(fb.length === Math.floor(done.v.vehicle_sim_time + 1e-9) - (Math.abs(done.v.vehicle_sim_time % 1) < 1e-9 ? 1 : 0) ||
    fb.length === Math.floor(done.v.vehicle_sim_time), `one feedback per whole second before the end: ${fb.length} for ${done.v.vehicle_sim_time} s`);
  check(fb[fb.length - 1].distance_to_goal > done.v.planbench.distance_to_goal && fb[0].distance_to_goal > fb[fb.length - 1].distance_to_goal,
    `the distance to the goal shrinks: ${fb.map((f) => f.distance_to_goal.toFixed(1))} then ${done.v.planbench.distance_to_goal}`);
}
await until(() => results.length > nBefore, 3000);
check(results.length > nBefore && results[results.length - 1].scenario_number === 50, 'the action\'s result is published on analyze_scenario too');
const badGoal = await sendGoal({ ...request, goal_radius: -5 }, []);
check(!badGoal.ok && /goal_radius/.test(badGoal.e), `a bad goal fails naming the field: ${badGoal.e}`);

// the external driver: the scenario waits for the first control message, then runs in the
// world's steps; its vehicle is driven on /asg_worker0/control/command/* and reports on
// /asg_worker0/odom and /asg_worker0/vehicle/status/*
const callWorld = (name, type, req) => new Promise((ok) => new Service({ ros, name, serviceType: `simulation_interfaces/srv/${type}` })
  .callService(req, ok, (e) => ok({ error: String(e) })));
await callWorld('/set_simulation_state', 'SetSimulationState', { state: { state: 2 } }); // paused: stepped by the test
const stamp = { sec: 0, nanosec: 0 };
const gearCmd = new Topic({ ros, name: '/asg_worker0/control/command/gear_cmd', messageType: 'autoware_vehicle_msgs/msg/GearCommand' });
const controlCmd = new Topic({ ros, name: '/asg_worker0/control/command/control_cmd', messageType: 'autoware_control_msgs/msg/Control' });
const control = (acceleration, velocity) => controlCmd.publish({ stamp, control_time: stamp,
  lateral: { stamp, steering_tire_angle: 0.0, steering_tire_rotation_rate: 0.0, is_defined_steering_tire_rotation_rate: false },
  longitudinal: { stamp, velocity, acceleration, jerk: 0.0, is_defined_acceleration: true, is_defined_jerk: false } });
const odom = [], speeds = [];
const odomTopic = new Topic({ ros, name: '/asg_worker0/odom', messageType: 'nav_msgs/msg/Odometry' });
odomTopic.subscribe((m) => odom.push(m));
const speedTopic = new Topic({ ros, name: '/asg_worker0/vehicle/status/velocity_status', messageType: 'autoware_vehicle_msgs/msg/VelocityReport' });
speedTopic.subscribe((m) => speeds.push(m.longitudinal_velocity));
const externalRequest = { ...request, scenario_number: 60, driver: 'external', sim_timeout_period: 2, vehicle_idling_timeout_period: -1,
  vehicle_stuck_timeout_period: -1, reference: false };
// cancelled while it waits for its first control message
const waiting = new Promise((ok) => {
  const id = action.sendGoal({ ...externalRequest, scenario_number: 59 }, () => ok('succeeded'), () => {}, (e) => ok(String(e)));
  setTimeout(() => action.cancelGoal(id), 300);
});
const cancelled = await waiting;
check(/canceled/.test(cancelled) && /"steps":0|"termination_reason"/.test(cancelled), `an external goal cancelled before it began: ${cancelled.slice(0, 120)}`);
const efb = [];
const external = sendGoal(externalRequest, efb);
await new Promise((ok) => setTimeout(ok, 300));
await callWorld('/step_simulation', 'StepSimulation', { steps: 4 }); // no control yet: the run has not begun
gearCmd.publish({ stamp, command: 2 }); // DRIVE
control(1.0, 3.0); // 1 m/s^2, commanding 3 m/s
await new Promise((ok) => setTimeout(ok, 200));
for (let k = 0; k < 3; k++) await callWorld('/step_simulation', 'StepSimulation', { steps: 20 }); // 3 s of the world's time
const ext = await external;
check(ext.ok && ext.v.termination_reason === 3 && ext.v.scenario_number === 60, `the external run ends by its sim timeout: ${JSON.stringify(ext).slice(0, 200)}`);
if (ext.ok) {
  check(Math.abs(ext.v.vehicle_sim_time - 2) < 1e-9 && ext.v.planbench.steps === 200, `2 s of sim time from the first control message: ${ext.v.vehicle_sim_time} s, ${ext.v.planbench.steps} steps`);
  check(ext.v.num_vehicle_control_messages === 1, `one control message: ${ext.v.num_vehicle_control_messages}`);
  // 1 m/s^2 from rest for 2 s along the start heading: 2 m, 2 m/s
  const last = ext.v.vehicle_trajectory[ext.v.vehicle_trajectory.length - 1], first = ext.v.vehicle_trajectory[0];
  const moved = Math.hypot(last.pose.position.x - first.pose.position.x, last.pose.position.y - first.pose.position.y);
  check(Math.abs(moved - 2) < 1e-6 && Math.abs(last.twist.linear.x - 2) < 1e-9, `driven as commanded: ${moved} m, ${last.twist.linear.x} m/s`);
}
check(efb.length === 1 && Math.abs(efb[0].sim_time - 1) < 1e-9, `feedback at 1 s of sim time: ${JSON.stringify(efb)}`);
await until(() => speeds.length > 0 && odom.length > 0, 2000);
check(speeds.some((v) => Math.abs(v - 2) < 1e-9) && odom.some((m) => m.child_frame_id === 'asg_worker0/base_link'),
  `the vehicle's velocity_status and odometry: ${speeds.slice(-2)} ${odom.length}`);
odomTopic.unsubscribe();
speedTopic.unsubscribe();

vehicleTopic.unsubscribe();
statusTopic.unsubscribe();
resultTopic.unsubscribe();
ros.close();
clearTimeout(deadline);
console.log(`e2e_scenario: ${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
