// Runs the `svix` library (ESM only, so it cannot be required from the CommonJS jest tests)
// in a child process. Reads a JSON request on stdin:
//   { sign: [{ secret, id, timestamp, payload }], verify: [{ secret, headers, payload }] }
// and prints { signatures: [string], verified: [boolean] }.
import { Webhook } from 'svix';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
	const request = JSON.parse(input);
	const signatures = (request.sign || []).map(({ secret, id, timestamp, payload }) =>
		new Webhook(secret).sign(id, new Date(timestamp * 1000), payload),
	);
	const verified = (request.verify || []).map(({ secret, headers, payload }) => {
		try {
			new Webhook(secret).verify(payload, headers);
			return true;
		} catch (error) {
			if (error && error.name === 'WebhookVerificationError') return false;
			throw error;
		}
	});
	process.stdout.write(JSON.stringify({ signatures, verified }));
});
