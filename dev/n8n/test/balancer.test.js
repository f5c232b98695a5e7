'use strict';

// The queue cluster's load balancer (dev/n8n/balancer.js) against plain HTTP servers (no n8n
// needed).

const http = require('node:http');
const { startBalancer } = require('../balancer');
const { freePort } = require('../../ports');

/** A server that answers `{ name, path, body }` with `status`. */
async function backend(name, status = 200) {
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			res.writeHead(status, { 'content-type': 'application/json', 'x-backend': name });
			res.end(JSON.stringify({ name, path: req.url, body: Buffer.concat(chunks).toString() }));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

let main;
let processors;
let downPort;
let balancer;
let ports;

beforeEach(async () => {
	main = await backend('main');
	processors = [await backend('p0'), await backend('p1', 401)];
	downPort = await freePort(); // nobody listens here
	ports = processors.map((processor) => processor.port);
	balancer = await startBalancer({
		mainPort: main.port,
		webhookPorts: () => ports,
		log: () => {},
	});
});

afterEach(async () => {
	await balancer.close();
	await Promise.all([main, ...processors].map((server) => server.close()));
});

const post = (path, headers = {}) =>
	fetch(`${balancer.url}${path}`, { method: 'POST', headers, body: 'hello' });

test('/webhook/ goes round-robin to the processors with the body; everything else to main; each is recorded', async () => {
	const answers = [];
	for (let index = 0; index < 4; index += 1) {
		const response = await post('/webhook/abc/webhook', { 'webhook-id': `evt_${index}` });
		const answer = await response.json();
		expect(answer.body).toBe('hello');
		answers.push([response.status, answer.name]);
	}
	expect(answers).toEqual([
		[200, 'p0'],
		[401, 'p1'],
		[200, 'p0'],
		[401, 'p1'],
	]);
	const rest = await fetch(`${balancer.url}/rest/settings?x=1`);
	expect(await rest.json()).toEqual({ name: 'main', path: '/rest/settings?x=1', body: '' });
	expect(
		balancer.records.map((record) => [record.target, record.processor, record.status]),
	).toEqual([
		['webhook', 0, 200],
		['webhook', 1, 401],
		['webhook', 0, 200],
		['webhook', 1, 401],
		['main', 'main', 200],
	]);
	expect(balancer.webhookRecords()).toHaveLength(4);
	expect(balancer.records[0]).toMatchObject({ webhookId: 'evt_0', path: '/webhook/abc/webhook' });
});

test('route() picks the processor; firstProcessorOf remembers who answered a webhook-id first', async () => {
	balancer.route = (req) => (req.headers['webhook-id'] === 'evt_x' ? 1 : undefined);
	expect((await (await post('/webhook/a/webhook', { 'webhook-id': 'evt_x' })).json()).name).toBe(
		'p1',
	);
	balancer.route = () => 0;
	expect((await (await post('/webhook/a/webhook', { 'webhook-id': 'evt_x' })).json()).name).toBe(
		'p0',
	);
	expect(balancer.firstProcessorOf('evt_x')).toBe(1);
	expect(balancer.recordsOf('evt_x').map((record) => record.processor)).toEqual([1, 0]);
	expect(balancer.firstProcessorOf('evt_unknown')).toBeUndefined();
});

test('a processor that is down is answered 502 and recorded, and is not "first" for its webhook-id; failover tries the next one', async () => {
	ports = [downPort, processors[0].port];
	balancer.route = () => 0;
	const refused = await post('/webhook/a/webhook', { 'webhook-id': 'evt_down' });
	expect(refused.status).toBe(502);
	expect(balancer.records.at(-1)).toMatchObject({
		processor: 0,
		status: 502,
		error: 'ECONNREFUSED',
		tried: [0],
	});
	expect(balancer.firstProcessorOf('evt_down')).toBeUndefined();

	balancer.failover = true;
	const failedOver = await post('/webhook/a/webhook', { 'webhook-id': 'evt_down' });
	expect(failedOver.status).toBe(200);
	expect((await failedOver.json()).name).toBe('p0');
	expect(balancer.records.at(-1)).toMatchObject({ processor: 1, status: 200, tried: [0, 1] });
	expect(balancer.firstProcessorOf('evt_down')).toBe(1);
});
