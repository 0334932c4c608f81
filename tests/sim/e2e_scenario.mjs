// End-to-end test of the auto_scene_gen worker (issue 19) in `planbench serve` with the real
// roslib client: subscribe to /asg_worker0/status and /asg_worker0/analyze_scenario, call
// /asg_worker0/services/run_scenario with the bundled BACRE scenario (its files relative to the
// worlds folder), get `received` at once, then the AnalyzeScenario request (success, a trajectory
// of sim-time stamps, vehicle_sim_time their span) and the status back to ONLINE_AND_READY; a bad
// request (a negative goal radius) gets an error reply naming the field, and the worker still
// runs the next scenario.
// Usage: node e2e_scenario.mjs PORT SOURCE_ROOT. Exits 0 when every check passes; every wait is bounded.
import { readFileSync } from 'node:fs';
import { Ros, Service, Topic } from 'roslib';

const [port, root] = process.argv.slice(2);
let failures = 0, checks = 0;
const check = (cond, what) => { checks++; if (!cond) { failures++; console.error('CHECK failed:', what); } };
const deadline = setTimeout(() => { console.error('e2e_scenario: timed out'); process.exit(1); }, 30000);

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
vehicleTopic.unsubscribe();
statusTopic.unsubscribe();
resultTopic.unsubscribe();
ros.close();
clearTimeout(deadline);
console.log(`e2e_scenario: ${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
