'use strict';
/**
 * The router (actions/router.ts) runs the items of one node run concurrently and still reports
 * as one at a time would (fast by default, issue 17): without Continue On Fail the earliest
 * failing item stops the run.
 */
const { useSandbox } = require('../support/action-sandbox');

const ctx = useSandbox();

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await ctx.setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

const byId = (value) => ({ __rl: true, mode: 'id', value });

describe('items run concurrently', () => {
	test('without Continue On Fail the earliest failing item stops the run, as one at a time would', async () => {
		const ids = await ctx.seed(16);
		const items = ids.map((id, index) => ({
			json: { id: index === 6 || index === 11 ? `unknown${String(index).padStart(5, '0')}` : id },
		}));
		const { error } = await ctx.run(
			{ resource: 'qrCode', operation: 'get', qrCodeId: byId('={{ $json.id }}') },
			{ items },
		);
		expect(error.message).toMatch(/"unknown00006" was not found/);
	});
});
